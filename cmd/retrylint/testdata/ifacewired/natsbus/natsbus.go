// Package natsbus implements api.Bus over JetStream: a handler's nil
// result is an Ack. It does not import the services.
package natsbus

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type NatsBus struct{ c jetstream.Consumer }

func New(c jetstream.Consumer) *NatsBus { return &NatsBus{c: c} }

func (b *NatsBus) Subscribe(ctx context.Context, durable string, h func(context.Context, jetstream.Msg) error) error {
	_, err := b.c.Consume(func(msg jetstream.Msg) {
		if err := h(ctx, msg); err != nil {
			_ = msg.NakWithDelay(time.Second)
			return
		}
		_ = msg.Ack()
	})
	return err
}

// Hooks implements api.Hooks: it logs what the hook returns.
type Hooks struct{}

func (Hooks) OnStop(f func(context.Context, jetstream.Msg) error) {
	if err := f(context.Background(), nil); err != nil {
		log.Print(err)
	}
}
