// Package typeparams proves barenak on generic code: a message type
// parameter, a generic producer and a generic delay classifier.
package typeparams

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

// Delivery is the handler-side view of a message.
type Delivery interface {
	Ack() error
	Nak() error
	NakWithDelay(time.Duration) error
	Term() error
}

// Result is a generic producer: its error may hold a carrier.
func Result[T any](ctx context.Context, v T) (T, error) {
	if ctx.Err() != nil {
		return v, retrykit.RetryAfter(ctx.Err(), time.Second)
	}
	return v, nil
}

// DelayOf is a generic delay classifier.
func DelayOf[E error](err E) (time.Duration, bool) {
	var rd retrykit.Retryable
	if errors.As(err, &rd) {
		return rd.RetryDelay(), true
	}
	return 0, false
}

func Handle[M Delivery, T any](ctx context.Context, msg M, v T) {
	if _, err := Result(ctx, v); err != nil {
		msg.Nak() // want `bare Nak redelivers retryable error err from Result at once`
		return
	}
	msg.Ack()
}

func Classify[M Delivery](msg M, err error) {
	if d, ok := DelayOf(err); ok {
		msg.Nak() // want `call NakWithDelay\(d\)`
		return
	}
	msg.Term()
}

func Batch[T any](ctx context.Context, msgs []jetstream.Msg, v T) {
	for _, msg := range msgs {
		if _, err := Result[T](ctx, v); err != nil {
			msg.Nak() // want `bare Nak redelivers retryable error err from Result at once`
			continue
		}
		msg.Ack()
	}
}

func Zero[M Delivery](msg M, err error) {
	if d, ok := DelayOf(err); ok {
		if d > 0 {
			msg.NakWithDelay(d)
			return
		}
		msg.Nak()
	}
}
