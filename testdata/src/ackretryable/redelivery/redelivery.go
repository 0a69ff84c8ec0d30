// Package redelivery proves that an Ack of a message nothing redelivers
// (a core NATS subscription's, an ordered consumer's) is not judged
// (contract version 3), while the same Ack of a durable consumer's
// message, or of a message whose origin is not shown, stays reported.
package redelivery

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Prices struct {
	nc *nats.Conn
	js jetstream.JetStream
}

// refresh is a retryable producer.
func (p *Prices) refresh(ctx context.Context, data []byte) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 5*time.Second)
	}
	return nil
}

func (p *Prices) _(ctx context.Context) error {
	_, err := p.nc.Subscribe("prices.tick", func(m *nats.Msg) {
		if err := p.refresh(ctx, m.Data); err != nil {
			m.Ack()
		}
	})
	return err
}

func (p *Prices) _(ctx context.Context) error {
	cons, err := p.js.OrderedConsumer(ctx, "PRICES", jetstream.OrderedConsumerConfig{})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		if err := p.refresh(ctx, m.Data()); err != nil {
			m.Ack()
		}
	})
	return err
}

func (p *Prices) _(ctx context.Context) error {
	cons, err := p.js.CreateOrUpdateConsumer(ctx, "PRICES", jetstream.ConsumerConfig{Durable: "prices"})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		if err := p.refresh(ctx, m.Data()); err != nil {
			m.Ack() // want `Ack in the error branch of retryable error err from refresh`
		}
	})
	return err
}

func (p *Prices) Handle(ctx context.Context, m *nats.Msg) {
	if err := p.refresh(ctx, m.Data); err != nil {
		m.Ack() // want `Ack in the error branch of retryable error err from refresh`
	}
}
