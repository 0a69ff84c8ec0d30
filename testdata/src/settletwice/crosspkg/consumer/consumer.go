// Package consumer calls the helpers of settlers: the helper that always
// Acks, followed by one that always Terms, is reported at the Term's call,
// across packages; a helper that Naks only on error, given nil, is quiet.
package consumer

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"settletwice/crosspkg/settlers"
)

type Consumer struct {
	apply func(context.Context, []byte) error
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	settlers.Done(msg)
	if err := c.apply(ctx, msg.Data()); err != nil {
		settlers.Drop(msg, "apply failed") // want `call to settlers.Drop \(it Terms the message\) after Ack in settlers.Done is ignored`
	}
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	if err := c.apply(ctx, msg.Data()); err != nil {
		_ = msg.Term() // want `Term after Ack is ignored`
	}
}

// Quiet: the helper settles once, after the work.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	settlers.Settle(msg, c.apply(ctx, msg.Data()))
}

// Quiet: the helper that Naks on error is given nil.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	settlers.Done(msg)
	settlers.Settle(msg, nil)
}
