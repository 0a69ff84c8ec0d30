// Package configured proves decode-funcs (configured by its test as
// poisonack/configured/codec.Open): a configured decoder's error branch
// is a decode-failure path, and the codec's other function is not.
package configured

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"poisonack/configured/codec"
)

type Worker struct{}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	env, err := codec.Open(msg.Data())
	if err != nil {
		_ = msg.Nak() // want `bare Nak on the decode failure of codec.Open`
		return
	}
	_ = env
	_ = msg.Ack()
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	data, err := codec.Seal(codec.Envelope{Body: msg.Data()})
	if err != nil {
		_ = msg.Nak()
		return
	}
	_ = data
	_ = msg.Ack()
}
