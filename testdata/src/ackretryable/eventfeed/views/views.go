// Package views projects stock events into read models. Its handlers take
// a feed.Event (and a decoded body), never a message: nothing here says
// they are handlers, so the returns that would be a defect if a caller
// Acked on nil are exported as facts of the exported functions whose
// signature a handler caller or middleware it can see (feed.Route,
// feed.Typed, feed.WithMeta) accepts, and reported where they are
// registered (ackretryable/eventfeed/app).
package views

import (
	"context"
	"log"
	"time"

	"ackretryable/eventfeed/feed"
	"ackretryable/foreign/retry"
)

type Stock struct{}

func (s *Stock) upsert(ctx context.Context, sku string) error { return &retry.Busy{D: time.Second} }

type Received struct{ SKU string }

// OnReceived drops the store's retryable error.
func (s *Stock) OnReceived(ctx context.Context, ev feed.Event, r Received) error { // want OnReceived:"drops a retryable error if a caller acks on nil"
	if err := s.upsert(ctx, r.SKU); err != nil {
		log.Print(err)
		return nil
	}
	return nil
}

// OnCounted drops it too, with feed.Func's own signature.
func (s *Stock) OnCounted(ctx context.Context, ev feed.Event) error { // want OnCounted:"drops a retryable error if a caller acks on nil"
	if err := s.upsert(ctx, ev.ID); err != nil {
		return nil
	}
	return nil
}

type Audit struct{ Who string }

// OnAudited drops the error too, with the signature of the handler
// feed.WithMeta adapts (middleware, not a bus).
func (s *Stock) OnAudited(ctx context.Context, meta feed.Meta, a Audit) error { // want OnAudited:"drops a retryable error if a caller acks on nil"
	if err := s.upsert(ctx, a.Who); err != nil {
		return nil
	}
	return nil
}

// OnShipped returns the error: no fact.
func (s *Stock) OnShipped(ctx context.Context, ev feed.Event) error {
	return s.upsert(ctx, ev.ID)
}

// Recount has a handler's signature but takes a count too: no handler
// parameter of a caller views can see accepts it, so it carries no fact.
func (s *Stock) Recount(ctx context.Context, ev feed.Event, n int, why string) error {
	if err := s.upsert(ctx, ev.ID); err != nil {
		return nil
	}
	return nil
}

// Transfer takes three parameters, as feed.Typed's handler does, but a
// string where it takes a feed.Event: it fits no shape, so it carries no
// fact.
func (s *Stock) Transfer(ctx context.Context, from, to string) error {
	if err := s.upsert(ctx, from+to); err != nil {
		return nil
	}
	return nil
}

// Count returns a count too: it fits no shape, no fact.
func (s *Stock) Count(ctx context.Context, ev feed.Event) (int, error) {
	if err := s.upsert(ctx, ev.ID); err != nil {
		return 0, nil
	}
	return 1, nil
}

// Tag is variadic, which feed.Typed's handler is not: no fact.
func (s *Stock) Tag(ctx context.Context, ev feed.Event, tags ...string) error {
	if err := s.upsert(ctx, ev.ID); err != nil {
		return nil
	}
	return nil
}

// Warm has no event at all: no fact.
func (s *Stock) Warm(ctx context.Context) error {
	if err := s.upsert(ctx, "all"); err != nil {
		return nil
	}
	return nil
}

// onAdjusted has the shape but is unexported: no other package can
// register it, so it carries no fact.
func (s *Stock) onAdjusted(ctx context.Context, ev feed.Event) error {
	if err := s.upsert(ctx, ev.ID); err != nil {
		return nil
	}
	return nil
}
