// Package typeparams proves dlqunchecked follows generic code: a generic
// dead-letter helper and a generic worker.
package typeparams

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"
)

type Codec[T any] interface {
	Decode([]byte) (T, error)
}

type Worker[T any] struct {
	js    jetstream.JetStream
	codec Codec[T]
}

func publishDLQ[T any](ctx context.Context, w *Worker[T], msg jetstream.Msg) error {
	_, err := w.js.Publish(ctx, "generic.DLQ", msg.Data())
	return err
}

func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg) {
	if err := publishDLQ(ctx, w, msg); err != nil {
		log.Printf("dlq: %v", err)
	}
	msg.Ack() // want `Ack on the failure path of the DLQ write publishDLQ`
}

func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg) error {
	if err := publishDLQ[T](ctx, w, msg); err != nil {
		return msg.NakWithDelay(5e9)
	}
	return msg.Ack()
}
