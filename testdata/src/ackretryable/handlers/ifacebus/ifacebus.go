// Package ifacebus is a bus behind an interface, as services depend on it
// for testability: Subscriber.Subscribe is a handler parameter because
// *Bus, which implements it, hands the handler to a dispatch that Acks on
// nil (in a switch). Notifier's callback is not: its implementation only
// logs what the callback returns.
package ifacebus

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Handler handles one message.
type Handler func(ctx context.Context, msg jetstream.Msg) error

// Subscriber is what services depend on.
type Subscriber interface {
	Subscribe(ctx context.Context, durable string, h Handler) (jetstream.ConsumeContext, error) // want Subscribe:"acks when handler param 2 returns nil"
}

// Notifier calls back when the bus reconnects.
type Notifier interface {
	OnReconnect(f func(ctx context.Context) error)
}

// Bus implements Subscriber and Notifier.
type Bus struct {
	c jetstream.Consumer
}

var _ Subscriber = (*Bus)(nil)

func (b *Bus) Subscribe(ctx context.Context, durable string, h Handler) (jetstream.ConsumeContext, error) { // want Subscribe:"acks when handler param 2 returns nil"
	return b.c.Consume(func(msg jetstream.Msg) {
		b.dispatch(ctx, msg, h)
	})
}

func (b *Bus) dispatch(ctx context.Context, msg jetstream.Msg, h Handler) { // want dispatch:"acks when handler param 2 returns nil" dispatch:"may Ack param 1; may NakWithDelay param 1"
	err := h(ctx, msg)
	switch {
	case err == nil:
		_ = msg.Ack()
		return
	}
	_ = msg.NakWithDelay(time.Second)
}

func (b *Bus) OnReconnect(f func(ctx context.Context) error) {
	go func() {
		if err := f(context.Background()); err != nil {
			log.Printf("reconnect hook: %v", err)
		}
	}()
}
