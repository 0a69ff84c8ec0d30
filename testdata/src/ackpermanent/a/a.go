// Package a holds the shapes ackpermanent reports: a message acked after
// its failure was classified as permanent, in a service that dead-letters
// other failures.
package a

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

// RetryDelay returns the retry delay err carries, if any.
func RetryDelay(err error) (time.Duration, bool) {
	var rd retryDelayer
	if errors.As(err, &rd) {
		return rd.RetryDelay(), true
	}
	return 0, false
}

type Ledger interface {
	Apply(ctx context.Context, data []byte) error
}

type Consumer struct {
	js     jetstream.JetStream
	ledger Ledger
	log    *slog.Logger
}

// deadLetter is the service's DLQ writer: the package keeps evidence.
func (c *Consumer) deadLetter(ctx context.Context, msg jetstream.Msg, reason string) error {
	_, err := c.js.Publish(ctx, "ledger.DLQ."+reason, msg.Data())
	return err
}

// The permanent failure is logged and acked: nothing is kept.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if d, ok := RetryDelay(err); ok {
			return msg.NakWithDelay(d)
		}
		c.log.Warn("dropping entry", "err", err)
		return msg.Ack() // want `Ack after err was classified as a permanent failure drops the message without evidence, though this package dead-letters elsewhere: write it to the DLQ, check the write, then Term it`
	}
	return msg.Ack()
}

// errors.As into a carrier that fails, then AckSync.
func (c *Consumer) _(ctx context.Context, msg *nats.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			_ = msg.NakWithDelay(rd.RetryDelay())
			return
		}
		_ = msg.AckSync() // want `AckSync after err was classified as a permanent failure`
		return
	}
	_ = msg.Ack()
}

// A retry predicate's false side.
func isRetryable(err error) bool {
	var rd retryDelayer
	return errors.As(err, &rd)
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	err := c.ledger.Apply(ctx, msg.Data())
	switch {
	case err == nil:
		_ = msg.Ack()
	case isRetryable(err):
		_ = msg.NakWithDelay(time.Second)
	default:
		_ = msg.DoubleAck(ctx) // want `DoubleAck after err was classified as a permanent failure`
	}
}

// A helper that always Acks.
func ack(msg jetstream.Msg) { _ = msg.Ack() }

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if _, ok := RetryDelay(err); !ok {
			ack(msg) // want `call to ack \(it Acks the message\) after err was classified as a permanent failure`
			return
		}
		_ = msg.Nak()
		return
	}
	ack(msg)
}

// A deferred Ack runs at the return after the permanent classification.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	defer msg.Ack()
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if _, ok := RetryDelay(err); !ok {
			c.log.Error("permanent", "err", err)
			return nil // want `the deferred Ack \(running at this return\) after err was classified as a permanent failure`
		}
		return err
	}
	return nil
}

// The DLQ write concerns another message: the one acked keeps nothing.
func (c *Consumer) _(ctx context.Context, msg, prev jetstream.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		_ = c.deadLetter(ctx, prev, "previous")
		if _, ok := RetryDelay(err); !ok {
			_ = msg.Ack() // want `Ack after err was classified as a permanent failure`
		}
	}
}
