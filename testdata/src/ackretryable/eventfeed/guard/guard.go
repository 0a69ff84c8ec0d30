// Package guard wraps feed handlers with the stock service's failure
// policies. Its middleware returns a closure of feed.Func's type, which
// is the handler wherever the middleware's result is registered: nothing
// here says so, so each middleware whose closure would be a defect if a
// caller Acked on nil carries the closure's returns as facts, and the
// packages that register it report them (ackpermanent/eventfeed/app,
// dlqunchecked/eventfeed/app). The package dead-letters (Park). Its
// PermanentDropFacts are checked by ackpermanent's
// TestMessagelessMiddleware.
package guard

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/eventfeed/feed"
)

type retryDelayer interface{ RetryDelay() time.Duration }

// ErrSeen is a replay of an event already applied.
var ErrSeen = errors.New("already applied")

type Parker struct {
	js jetstream.JetStream
}

func (p *Parker) writeDLQ(ctx context.Context, ev feed.Event) error {
	_, err := p.js.Publish(ctx, "stock.DLQ", ev.Body)
	return err
}

// SkipFailures retries what carries a delay and skips the rest: the
// closure returns nil after a permanent failure, with no DLQ write.
func SkipFailures(h feed.Func) feed.Func { // want SkipFailures:"acks a permanent failure without evidence if a caller acks on nil"
	return func(ctx context.Context, ev feed.Event) error {
		err := h(ctx, ev)
		if err == nil {
			return nil
		}
		var rd retryDelayer
		if errors.As(err, &rd) {
			return err
		}
		log.Print("skipping ", ev.ID, ": ", err)
		return nil
	}
}

// SkipFailuresIf returns one of two closures: which one a registration
// gets is not known, so neither is a candidate (their facts would mix).
func SkipFailuresIf(skip bool, h feed.Func) feed.Func {
	if skip {
		return func(ctx context.Context, ev feed.Event) error {
			err := h(ctx, ev)
			if err == nil {
				return nil
			}
			var rd retryDelayer
			if errors.As(err, &rd) {
				return err
			}
			return nil
		}
	}
	return func(ctx context.Context, ev feed.Event) error { return h(ctx, ev) }
}

// ParkRaw dead-letters the message of a permanent failure, checks the
// write, and returns nil. Its closure takes the message: the DLQ write
// is of the closure's message.
func (p *Parker) ParkRaw(h feed.MsgFunc) feed.MsgFunc {
	return func(ctx context.Context, msg jetstream.Msg) error {
		err := h(ctx, msg)
		var rd retryDelayer
		if err == nil || errors.As(err, &rd) {
			return err
		}
		if _, werr := p.js.Publish(ctx, "stock.DLQ", msg.Data()); werr != nil {
			return werr
		}
		return nil
	}
}

// SkipRaw skips a permanent failure of a raw message: its closure
// returns nil with no DLQ write.
func SkipRaw(h feed.MsgFunc) feed.MsgFunc { // want SkipRaw:"acks a permanent failure without evidence if a caller acks on nil"
	return func(ctx context.Context, msg jetstream.Msg) error {
		err := h(ctx, msg)
		var rd retryDelayer
		if err == nil || errors.As(err, &rd) {
			return err
		}
		return nil
	}
}

// Skipper returns a handler without taking one: no middleware, so its
// closure is no candidate and it carries no fact.
func Skipper(apply func(feed.Event) error) feed.Func {
	return func(ctx context.Context, ev feed.Event) error {
		err := apply(ev)
		var rd retryDelayer
		if err == nil || errors.As(err, &rd) {
			return err
		}
		return nil
	}
}

// Later takes a handler but returns a thunk of another type, which no
// bus takes: no candidate, no fact.
func Later(h feed.Func, ev feed.Event) func() error {
	return func() error {
		err := h(context.Background(), ev)
		var rd retryDelayer
		if err == nil || errors.As(err, &rd) {
			return err
		}
		return nil
	}
}

// SkipSeen returns nil for a replay only, decided with errors.Is: an
// already-applied event is done.
func SkipSeen(h feed.Func) feed.Func {
	return func(ctx context.Context, ev feed.Event) error {
		if err := h(ctx, ev); err != nil {
			if errors.Is(err, ErrSeen) {
				return nil
			}
			return err
		}
		return nil
	}
}

// Park dead-letters permanent failures and returns the write's error.
func (p *Parker) Park(h feed.Func) feed.Func {
	return func(ctx context.Context, ev feed.Event) error {
		err := h(ctx, ev)
		var rd retryDelayer
		if err == nil || errors.As(err, &rd) {
			return err
		}
		if werr := p.writeDLQ(ctx, ev); werr != nil {
			return werr
		}
		return nil
	}
}

// ParkBestEffort discards the write's error and returns nil.
func (p *Parker) ParkBestEffort(h feed.Func) feed.Func {
	return func(ctx context.Context, ev feed.Event) error {
		err := h(ctx, ev)
		var rd retryDelayer
		if err == nil || errors.As(err, &rd) {
			return err
		}
		_ = p.writeDLQ(ctx, ev)
		return nil
	}
}
