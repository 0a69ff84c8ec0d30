// Package suppress proves //retrylint:ignore and //nolint:retrylint
// silence settletwice, at the end of the reported line or alone on the
// line above it, and that other comments do not.
package suppress

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

type Worker struct {
	work func(context.Context, []byte) error
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	if err := w.work(ctx, msg.Data()); err != nil {
		_ = msg.Nak() //retrylint:ignore settletwice the Nak only records the failure in the broker's log
	}
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	if err := w.work(ctx, msg.Data()); err != nil {
		//nolint:retrylint // audited: the work is idempotent and re-driven by a scan
		_ = msg.Nak()
	}
}

// An ordinary comment does not exempt.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	if err := w.work(ctx, msg.Data()); err != nil {
		// The Nak is best effort.
		_ = msg.Nak() // want `Nak after Ack is ignored`
	}
}
