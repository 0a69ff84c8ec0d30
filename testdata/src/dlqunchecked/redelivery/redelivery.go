// Package redelivery proves that an Ack of a message nothing redelivers
// (a core NATS subscription's, an AckNone consumer's) is not ordered
// against the DLQ write (contract version 3), while the same Ack of a
// durable consumer's message stays reported.
package redelivery

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Audit struct {
	nc *nats.Conn
	js jetstream.JetStream
}

func (a *Audit) _(ctx context.Context) error {
	_, err := a.nc.Subscribe("audit.events", func(m *nats.Msg) {
		m.Ack()
		_, _ = a.js.Publish(ctx, "audit.DLQ", m.Data)
	})
	return err
}

func (a *Audit) _(ctx context.Context) error {
	cons, err := a.js.CreateOrUpdateConsumer(ctx, "AUDIT", jetstream.ConsumerConfig{Durable: "audit", AckPolicy: jetstream.AckNonePolicy})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		m.Ack()
		_, _ = a.js.Publish(ctx, "audit.DLQ", m.Data())
	})
	return err
}

func (a *Audit) _(ctx context.Context) error {
	cons, err := a.js.CreateOrUpdateConsumer(ctx, "AUDIT", jetstream.ConsumerConfig{Durable: "audit"})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		m.Ack() // want `Ack before the DLQ write a.js.Publish`
		_, _ = a.js.Publish(ctx, "audit.DLQ", m.Data())
	})
	return err
}
