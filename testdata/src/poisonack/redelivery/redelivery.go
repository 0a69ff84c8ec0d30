// Package redelivery proves that a decode failure of a message nothing
// redelivers (a core NATS subscription's, a SubscribeSync's, an ordered
// consumer's) is not judged (contract version 3), while the same code on
// a durable consumer's message stays reported.
package redelivery

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Quote struct{ Symbol string }

type Feed struct {
	nc *nats.Conn
	js jetstream.JetStream
}

func (f *Feed) _(ctx context.Context) error {
	_, err := f.nc.Subscribe("quotes", func(m *nats.Msg) {
		var q Quote
		if err := json.Unmarshal(m.Data, &q); err != nil {
			m.Ack()
			return
		}
		m.Ack()
	})
	return err
}

func (f *Feed) _(ctx context.Context) error {
	sub, err := f.nc.SubscribeSync("quotes.sync")
	if err != nil {
		return err
	}
	m, err := sub.NextMsg(time.Second)
	if err != nil {
		return err
	}
	var q Quote
	if err := json.Unmarshal(m.Data, &q); err != nil {
		m.Nak()
	}
	return nil
}

func (f *Feed) _(ctx context.Context) error {
	cons, err := f.js.OrderedConsumer(ctx, "QUOTES", jetstream.OrderedConsumerConfig{})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		var q Quote
		if err := json.Unmarshal(m.Data(), &q); err != nil {
			m.Ack()
		}
	})
	return err
}

func (f *Feed) _(ctx context.Context) error {
	cons, err := f.js.CreateOrUpdateConsumer(ctx, "QUOTES", jetstream.ConsumerConfig{Durable: "quotes"})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		var q Quote
		if err := json.Unmarshal(m.Data(), &q); err != nil {
			m.Ack() // want `Ack on the decode failure of json.Unmarshal`
		}
	})
	return err
}
