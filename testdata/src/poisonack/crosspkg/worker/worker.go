// Package worker decodes with package codec and dead-letters with its
// writer: the DLQ writer is known through a fact.
package worker

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"poisonack/crosspkg/codec"
)

type Worker struct {
	js jetstream.JetStream
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	o, err := codec.UnmarshalOrder(msg.Data())
	if err != nil {
		return msg.Term() // want `Term on the decode failure of codec.UnmarshalOrder drops the payload without evidence`
	}
	_ = o
	return msg.Ack()
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := codec.UnmarshalOrder(msg.Data()); err != nil {
		return msg.Nak() // want `bare Nak on the decode failure of codec.UnmarshalOrder`
	}
	return msg.Ack()
}

// Not reported: the decode failure is dead-lettered (checked) and then
// terminated.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := codec.UnmarshalOrder(msg.Data()); err != nil {
		if err := codec.Park(ctx, w.js, msg); err != nil {
			return msg.NakWithDelay(5 * time.Second)
		}
		return msg.Term()
	}
	return msg.Ack()
}

// Not reported: a helper that writes the DLQ and Terms.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := codec.UnmarshalOrder(msg.Data()); err != nil {
		return codec.ParkAndTerm(ctx, w.js, msg)
	}
	return msg.Ack()
}
