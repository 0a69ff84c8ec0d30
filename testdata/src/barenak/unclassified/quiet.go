package unclassified

// The look-alikes of unclassified.go that stay quiet: a known zero
// delay, a Nak after a classification that is not a transient one, Naks
// off error paths (shutdown, rebalancing), a decode's error (poisonack's),
// an error of unknown origin (a parameter), a context's cancellation, a
// failed Ack, and NakWithDelay.

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"barenak/unclassified/store"
	"retrykit"
)

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	err := w.h.Handle(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok && d <= 0 {
		msg.Nak()
	}
}

// errors.Is decided that "retry now" is right for a conflict.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.orders.Save(ctx, msg.Subject(), msg.Data()); err != nil {
		if errors.Is(err, store.ErrConflict) {
			msg.Nak()
			return
		}
		msg.NakWithDelay(5 * time.Second)
		return
	}
	msg.Ack()
}

// Shutdown: hand the message back to another consumer at once.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	select {
	case <-ctx.Done():
		msg.Nak()
		return
	default:
	}
	if err := ctx.Err(); err != nil {
		msg.Nak()
		return
	}
	msg.Ack()
}

// Rebalancing: no error at all.
func (w *Worker) _(msg jetstream.Msg, owned func(string) bool) {
	if !owned(msg.Subject()) {
		msg.Nak()
		return
	}
	msg.Ack()
}

// A decode's error is poisonack's.
func (w *Worker) _(msg jetstream.Msg) {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		msg.Nak()
	}
}

// The error is a parameter: its origin is the caller's.
func nakOnError(msg jetstream.Msg, err error) {
	if err != nil {
		msg.Nak()
	}
}

// The Ack failed: not a dependency's failure.
func (w *Worker) _(msg jetstream.Msg) {
	if err := msg.Ack(); err != nil {
		msg.Nak()
	}
}

// A fresh error of the code's own making.
func (w *Worker) _(msg jetstream.Msg) {
	var err error
	if len(msg.Data()) == 0 {
		err = errors.New("empty")
	}
	if err != nil {
		msg.Nak()
	}
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.h.Handle(ctx, msg.Data()); err != nil {
		msg.NakWithDelay(time.Second)
	}
}
