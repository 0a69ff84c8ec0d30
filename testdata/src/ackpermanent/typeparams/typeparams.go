// Package typeparams proves ackpermanent follows generic code: a generic
// worker that acks a permanent failure, and its correct twin.
package typeparams

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Worker[T any] struct {
	js     jetstream.JetStream
	decode func([]byte) (T, error)
	apply  func(context.Context, T) error
}

func deadLetter[T any](ctx context.Context, w *Worker[T], msg jetstream.Msg) error {
	_, err := w.js.Publish(ctx, "generic.DLQ", msg.Data())
	return err
}

func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg, v T) {
	if err := w.apply(ctx, v); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			_ = msg.Ack() // want `Ack after err was classified as a permanent failure`
			return
		}
		_ = msg.NakWithDelay(rd.RetryDelay())
		return
	}
	_ = msg.Ack()
}

// Quiet: dead-lettered first.
func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg, v T) {
	if err := w.apply(ctx, v); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			if err := deadLetter(ctx, w, msg); err != nil {
				_ = msg.NakWithDelay(5 * time.Second)
				return
			}
			_ = msg.Term()
			return
		}
		_ = msg.NakWithDelay(rd.RetryDelay())
	}
}
