// Package suppress proves //retrylint:ignore and //nolint:retrylint
// silence ackpermanent, at the end of the reported line or alone on the
// line above it, and that other comments do not.
package suppress

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Worker struct {
	js   jetstream.JetStream
	work func(context.Context, []byte) error
}

func (w *Worker) park(ctx context.Context, msg jetstream.Msg) error {
	_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.work(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			_ = msg.Ack() //retrylint:ignore ackpermanent the audit log keeps the payload
		}
	}
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.work(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			//nolint:retrylint // the audit log keeps the payload
			_ = msg.Ack()
		}
	}
}

// An ordinary comment does not exempt.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.work(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			// Permanent: drop it.
			_ = msg.Ack() // want `Ack after err was classified as a permanent failure`
		}
	}
}
