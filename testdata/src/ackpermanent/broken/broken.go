// Package broken proves ackpermanent does not panic on code with type
// errors and reports nothing whose types are broken; a well-typed defect
// in the same package is still reported.
package broken

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Consumer struct {
	js jetstream.JetStream
}

func (c *Consumer) park(ctx context.Context, msg jetstream.Msg) error {
	_, err := c.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

func _(ctx context.Context, msg UnknownMsg) {
	if err := undefinedWork(ctx); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			msg.Ack()
		}
	}
}

func _(ctx context.Context, msg jetstream.Msg, work func() error) {
	if err := work(); err != nil {
		var rd UnknownCarrier
		if !errors.As(err, &rd) {
			msg.Ack()
		}
	}
}

func _(ctx context.Context, msg jetstream.Msg, work func() error) {
	if err := work(); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			msg.Ack() // want `Ack after err was classified as a permanent failure`
		}
	}
}
