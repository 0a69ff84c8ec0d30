// Package guard wraps feed handlers with the stock service's failure
// policies. Its middleware returns a closure of feed.Func's type, which
// is the handler wherever the middleware's result is registered: nothing
// here says so, so each middleware whose closure would be a defect if a
// caller Acked on nil carries the closure's returns as facts, and the
// packages that register it report them (ackpermanent/eventfeed/app,
// dlqunchecked/eventfeed/app). The package dead-letters (Park).
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
func SkipFailures(h feed.Func) feed.Func {
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
