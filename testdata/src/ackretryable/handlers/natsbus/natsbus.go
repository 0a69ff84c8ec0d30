// Package natsbus implements ifaceapi.Bus: Subscribe Acks a message when
// its handler returns nil.
package natsbus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/ifaceapi"
)

// NatsBus is the JetStream implementation of ifaceapi.Bus.
type NatsBus struct {
	c jetstream.Consumer
}

var _ ifaceapi.Bus = (*NatsBus)(nil)

// New returns a bus over c.
func New(c jetstream.Consumer) *NatsBus { return &NatsBus{c: c} }

func (b *NatsBus) Subscribe(ctx context.Context, subject string, h func(context.Context, jetstream.Msg) error) error { // want Subscribe:"acks when handler param 2 returns nil"
	_, err := b.c.Consume(func(msg jetstream.Msg) {
		if err := h(ctx, msg); err != nil {
			_ = msg.NakWithDelay(time.Second)
			return
		}
		_ = msg.Ack()
	})
	return err
}
