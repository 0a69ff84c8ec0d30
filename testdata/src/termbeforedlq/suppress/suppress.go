// Package suppress proves //retrylint:ignore and //nolint:retrylint silence
// termbeforedlq, at the end of the reported line or alone on the line
// above it, and that other comments do not.
package suppress

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

type Consumer struct {
	js jetstream.JetStream
}

func (c *Consumer) park(ctx context.Context, msg jetstream.Msg) error {
	_, err := c.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() //retrylint:ignore the copy is best effort, the stream keeps a replica
	return c.park(ctx, msg)
}

func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	//nolint:retrylint // audited: the DLQ consumer reads the replica
	msg.Term()
	return c.park(ctx, msg)
}

func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() //nolint:errcheck,retrylint
	return c.park(ctx, msg)
}

// An ordinary comment does not exempt.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	// The DLQ write is best effort.
	msg.Term() // want `Term before the DLQ write c\.park`
	return c.park(ctx, msg)
}

// Another linter's directive does not exempt.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() //nolint:errcheck // want `Term before the DLQ write c\.park`
	return c.park(ctx, msg)
}
