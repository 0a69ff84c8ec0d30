// Package redelivery proves that messages nothing redelivers are not
// judged (contract version 3): a core NATS subscription's (a callback
// literal, a method registered as the callback, SubscribeSync,
// ChanSubscribe), an ordered consumer's, an AckNone consumer's, an
// ephemeral consumer read once, and the legacy API's OrderedConsumer() and
// AckNone() subscriptions. The same code on a durable JetStream consumer
// stays reported (durable.go).
package redelivery

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Cache struct {
	nc    *nats.Conn
	js    jetstream.JetStream
	jsctx nats.JetStreamContext
	store Store
}

type Store interface {
	Put(ctx context.Context, key string, data []byte) error
}

func (c *Cache) _(ctx context.Context) error {
	_, err := c.nc.Subscribe("cache.invalidate", func(m *nats.Msg) {
		if err := c.store.Put(ctx, m.Subject, m.Data); err != nil {
			m.Nak()
		}
	})
	return err
}

func (c *Cache) _(ctx context.Context) error {
	_, err := c.nc.QueueSubscribe("cache.put", "workers", c.onPut)
	return err
}

// onPut is registered on a core NATS queue subscription.
func (c *Cache) onPut(m *nats.Msg) {
	if err := c.store.Put(context.Background(), m.Subject, m.Data); err != nil {
		m.Nak()
	}
}

func (c *Cache) _(ctx context.Context) error {
	sub, err := c.nc.SubscribeSync("cache.sync")
	if err != nil {
		return err
	}
	m, err := sub.NextMsg(time.Second)
	if err != nil {
		return err
	}
	if err := c.store.Put(ctx, m.Subject, m.Data); err != nil {
		m.Nak()
	}
	return nil
}

func (c *Cache) _(ctx context.Context) error {
	ch := make(chan *nats.Msg, 64)
	if _, err := c.nc.ChanSubscribe("cache.chan", ch); err != nil {
		return err
	}
	for m := range ch {
		if err := c.store.Put(ctx, m.Subject, m.Data); err != nil {
			m.Nak()
		}
	}
	return nil
}

func (c *Cache) _(ctx context.Context) error {
	cons, err := c.js.OrderedConsumer(ctx, "CACHE", jetstream.OrderedConsumerConfig{})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		if err := c.store.Put(ctx, m.Subject(), m.Data()); err != nil {
			m.Nak()
		}
	})
	return err
}

func (c *Cache) _(ctx context.Context) error {
	cons, err := c.js.CreateOrUpdateConsumer(ctx, "CACHE", jetstream.ConsumerConfig{Durable: "cache", AckPolicy: jetstream.AckNonePolicy})
	if err != nil {
		return err
	}
	batch, err := cons.Fetch(100)
	if err != nil {
		return err
	}
	for m := range batch.Messages() {
		if err := c.store.Put(ctx, m.Subject(), m.Data()); err != nil {
			m.Nak()
		}
	}
	return nil
}

// A replay reader: an ephemeral consumer read once.
func (c *Cache) _(ctx context.Context) error {
	cons, err := c.js.CreateConsumer(ctx, "CACHE", jetstream.ConsumerConfig{DeliverPolicy: jetstream.DeliverLastPolicy})
	if err != nil {
		return err
	}
	m, err := cons.Next()
	if err != nil {
		return err
	}
	if err := c.store.Put(ctx, m.Subject(), m.Data()); err != nil {
		m.Nak()
	}
	return nil
}

func (c *Cache) _(ctx context.Context) error {
	_, err := c.jsctx.Subscribe("cache.legacy", func(m *nats.Msg) {
		if err := c.store.Put(ctx, m.Subject, m.Data); err != nil {
			m.Nak()
		}
	}, nats.OrderedConsumer())
	return err
}
