package redelivery

// The positives beside redelivery.go's look-alikes: the same code on
// durable JetStream consumers, and on a message whose origin the function
// does not show.

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func (c *Cache) _(ctx context.Context) error {
	cons, err := c.js.CreateOrUpdateConsumer(ctx, "CACHE", jetstream.ConsumerConfig{Durable: "cache", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		if err := c.store.Put(ctx, m.Subject(), m.Data()); err != nil {
			m.Nak() // want `bare Nak on the unclassified error of c.store.Put`
		}
	})
	return err
}

// An ephemeral consumer consumed continuously is a reader that goes on.
func (c *Cache) _(ctx context.Context) error {
	cons, err := c.js.CreateConsumer(ctx, "CACHE", jetstream.ConsumerConfig{})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(m jetstream.Msg) {
		if err := c.store.Put(ctx, m.Subject(), m.Data()); err != nil {
			m.Nak() // want `bare Nak on the unclassified error of c.store.Put`
		}
	})
	return err
}

func (c *Cache) _(ctx context.Context) error {
	_, err := c.jsctx.Subscribe("cache.legacy", func(m *nats.Msg) {
		if err := c.store.Put(ctx, m.Subject, m.Data); err != nil {
			m.Nak() // want `bare Nak on the unclassified error of c.store.Put`
		}
	}, nats.Durable("cache"), nats.ManualAck())
	return err
}

// The origin is the caller's: judged as before.
func (c *Cache) Handle(ctx context.Context, m *nats.Msg) {
	if err := c.store.Put(ctx, m.Subject, m.Data); err != nil {
		m.Nak() // want `bare Nak on the unclassified error of c.store.Put`
	}
}
