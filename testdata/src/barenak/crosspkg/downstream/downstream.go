// Package downstream is a JetStream consumer that uses producers and
// classifiers of the packages above: barenak finds the transient paths
// through facts, and stays quiet on their look-alikes.
package downstream

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"barenak/crosspkg/middle"
	"barenak/crosspkg/upstream"
)

type Consumer struct {
	inv  *middle.Inventory
	ship func(ctx context.Context, sku string) error
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.inv.Reserve(ctx, string(msg.Data())); err != nil {
		msg.Nak() // want `bare Nak redelivers retryable error err from Reserve at once`
		return
	}
	msg.Ack()
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	err := c.ship(ctx, string(msg.Data()))
	if d, ok := upstream.Backoff(err); ok {
		msg.Nak() // want `call NakWithDelay\(d\)`
		_ = d
	}
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ship(ctx, string(msg.Data())); middle.WorthRetrying(err) {
		msg.Nak() // want `bare Nak redelivers transient error err at once`
	}
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.inv.Lookup(string(msg.Data())); err != nil {
		msg.Nak() // want `unclassified error of c.inv.Lookup`
	}
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	err := c.ship(ctx, string(msg.Data()))
	if _, ok := upstream.Elapsed(err); ok {
		msg.Nak()
	}
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ship(ctx, string(msg.Data())); !middle.WorthRetrying(err) {
		msg.Nak()
	}
}
