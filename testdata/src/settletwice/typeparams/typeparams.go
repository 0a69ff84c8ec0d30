// Package typeparams proves settletwice follows generic code: a generic
// worker that acks early, and a generic helper that always Terms.
package typeparams

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

type Codec[T any] interface {
	Decode([]byte) (T, error)
}

type Worker[T any] struct {
	codec Codec[T]
	apply func(context.Context, T) error
}

func drop[T any](w *Worker[T], msg jetstream.Msg) {
	_ = msg.Term()
}

func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	v, err := w.codec.Decode(msg.Data())
	if err != nil {
		drop(w, msg) // want `call to drop \(it Terms the message\) after Ack is ignored`
		return
	}
	if err := w.apply(ctx, v); err != nil {
		_ = msg.Nak() // want `Nak after Ack is ignored`
	}
}

// Quiet: acked after the work.
func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg) {
	v, err := w.codec.Decode(msg.Data())
	if err != nil {
		drop(w, msg)
		return
	}
	if err := w.apply(ctx, v); err != nil {
		_ = msg.Nak()
		return
	}
	_ = msg.Ack()
}
