// Package notreported holds look-alikes ackpermanent must leave alone:
// errors identified with errors.Is or a type switch, Acks after a DLQ
// write (checked or not), a Term, the success path, and an error that may
// be nil.
package notreported

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

func RetryDelay(err error) (time.Duration, bool) {
	var rd retryDelayer
	if errors.As(err, &rd) {
		return rd.RetryDelay(), true
	}
	return 0, false
}

var ErrDuplicate = errors.New("duplicate entry")

type NotFoundError struct{ ID string }

func (e *NotFoundError) Error() string { return "not found: " + e.ID }

type Ledger interface {
	Apply(ctx context.Context, data []byte) error
}

type Consumer struct {
	js     jetstream.JetStream
	ledger Ledger
	log    *slog.Logger
}

func (c *Consumer) deadLetter(ctx context.Context, msg jetstream.Msg) error {
	_, err := c.js.Publish(ctx, "ledger.DLQ", msg.Data())
	return err
}

// The contract's answer: DLQ, checked, then Term.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if d, ok := RetryDelay(err); ok {
			return msg.NakWithDelay(d)
		}
		if err := c.deadLetter(ctx, msg); err != nil {
			return msg.NakWithDelay(5 * time.Second)
		}
		return msg.Term()
	}
	return msg.Ack()
}

// Moved to the DLQ, then acked: correct too.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if _, ok := RetryDelay(err); !ok {
			if err := c.deadLetter(ctx, msg); err != nil {
				return msg.NakWithDelay(5 * time.Second)
			}
			return msg.Ack()
		}
		return msg.Nak()
	}
	return msg.Ack()
}

// The write's error is dropped: dlqunchecked's business, not this check's.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if _, ok := RetryDelay(err); !ok {
			_ = c.deadLetter(ctx, msg)
			_ = msg.Ack()
		}
	}
}

// A duplicate is already applied: acking it is the decision.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if d, ok := RetryDelay(err); ok {
			_ = msg.NakWithDelay(d)
			return
		}
		if errors.Is(err, ErrDuplicate) {
			_ = msg.Ack()
			return
		}
		_ = msg.Term()
	}
}

// A type switch on a named type decides too.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if _, ok := RetryDelay(err); ok {
			_ = msg.Nak()
			return
		}
		switch err.(type) {
		case *NotFoundError:
			_ = msg.Ack()
		default:
			_ = msg.Term()
		}
	}
}

// The classification runs before any nil test: its !ok side holds
// success too.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	err := c.ledger.Apply(ctx, msg.Data())
	if d, ok := RetryDelay(err); ok {
		_ = msg.NakWithDelay(d)
		return
	}
	_ = msg.Ack()
}

// A type assertion looks at the top of the chain only.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if rd, ok := err.(retryDelayer); ok {
			_ = msg.NakWithDelay(rd.RetryDelay())
			return
		}
		_ = msg.Ack()
	}
}

// The retry side: NakWithDelay, then an Ack of the success path.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := c.ledger.Apply(ctx, msg.Data()); err != nil {
		if d, ok := RetryDelay(err); ok {
			_ = msg.NakWithDelay(d)
		}
		return
	}
	_ = msg.Ack()
}
