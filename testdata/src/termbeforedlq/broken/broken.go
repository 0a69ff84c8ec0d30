// Package broken proves termbeforedlq does not panic on code with type
// errors and reports nothing whose types are broken; a well-typed defect
// in the same package is still reported.
package broken

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

type Consumer struct {
	js      jetstream.JetStream
	missing UnknownWriter
}

func _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	return undefinedDLQWrite(ctx, msg)
}

func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	return c.missing.DeadLetter(ctx, msg.Data())
}

func _(c *Consumer, ctx context.Context, msg UnknownMsg) error {
	msg.Term()
	_, err := c.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	if err := c.js.Publish(ctx, "orders.DLQ"); err != nil {
		goto nowhere
	}
	for msg.Term() {
	}
	return msg.Term(1, 2)
}

func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write c\.js\.Publish`
	_, err := c.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}
