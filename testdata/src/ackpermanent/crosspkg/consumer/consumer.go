// Package consumer uses the helpers of retry: the classifier and the
// always-Ack helper are known through facts, and the package dead-letters
// through retry.Park and retry.DeadLetter.
package consumer

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"ackpermanent/crosspkg/retry"
)

type Consumer struct {
	js    jetstream.JetStream
	apply func(context.Context, []byte) error
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.apply(ctx, msg.Data()); err != nil {
		if d, ok := retry.Delay(err); ok {
			_ = msg.NakWithDelay(d)
			return
		}
		retry.Done(msg) // want `call to retry.Done \(it Acks the message\) after err was classified as a permanent failure`
		return
	}
	retry.Done(msg)
}

// Quiet: parked through the helper that writes the DLQ, then Terms.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.apply(ctx, msg.Data()); err != nil {
		if d, ok := retry.Delay(err); ok {
			_ = msg.NakWithDelay(d)
			return
		}
		retry.Park(ctx, c.js, msg)
		return
	}
	retry.Done(msg)
}

// Quiet: dead-lettered through the helper, then acked.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.apply(ctx, msg.Data()); err != nil {
		if _, ok := retry.Delay(err); !ok {
			if err := retry.DeadLetter(ctx, c.js, msg); err != nil {
				return
			}
			retry.Done(msg)
		}
	}
}
