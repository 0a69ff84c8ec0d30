// Package typeparams proves ackretryable on generic code: a message type
// parameter, a generic producer, and a generic batch handler.
package typeparams

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Delivery interface {
	Ack() error
	Nak() error
	Term() error
}

// Store is a generic producer.
func Store[T any](ctx context.Context, v T) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), time.Second)
	}
	return nil
}

type Repo[T any] struct{}

// Put is a producer method of a generic type.
func (r *Repo[T]) Put(ctx context.Context, v T) error { return Store(ctx, v) }

func Handle[M Delivery, T any](ctx context.Context, msg M, v T) {
	if err := Store(ctx, v); err != nil {
		msg.Ack() // want `Ack in the error branch of retryable error err from Store`
		return
	}
	msg.Ack()
}

func Batch[T any](ctx context.Context, r *Repo[T], msgs []jetstream.Msg, v T) {
	for _, msg := range msgs {
		if err := r.Put(ctx, v); err != nil {
			msg.Ack() // want `Ack in the error branch of retryable error err from Put`
			continue
		}
		msg.Ack()
	}
}

func Classified[M Delivery, T any](ctx context.Context, msg M, v T) {
	if err := Store[T](ctx, v); err != nil {
		var rd retrykit.Retryable
		if errors.As(err, &rd) {
			msg.Nak()
			return
		}
		msg.Ack()
	}
}
