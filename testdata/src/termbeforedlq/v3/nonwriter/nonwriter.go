// Package nonwriter proves CONTRACT.md version 3's "A DLQ writer by name
// that does not write": a function named like a DLQ writer that writes
// nothing anywhere and Terms (or Acks) its message is reported at that
// settlement, and is no DLQ write at its call sites; a function so named
// that stores the message where the model cannot see (a database row), a
// function marked //retrylint:dlq, and a real writer stay quiet.
package nonwriter

import (
	"context"
	"log"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Store is the service's database.
type Store interface {
	Insert(ctx context.Context, table string, row []byte) error
}

type Consumer struct {
	js     jetstream.JetStream
	store  Store
	logger *slog.Logger
}

// deadLetter only logs: nothing keeps the payload.
func (c *Consumer) deadLetter(ctx context.Context, msg jetstream.Msg, reason string) error {
	log.Printf("dead letter %s: %s", msg.Subject(), reason)
	return msg.TermWithReason(reason) // want `deadLetter terminates the message without writing it anywhere: its callers lose the message and its evidence`
}

// sendToDLQ acknowledges instead.
func sendToDLQ(msg *nats.Msg) {
	_ = msg.Ack() // want `sendToDLQ acknowledges the message without writing it anywhere`
}

// Quiet at the call: deadLetter is no DLQ write, so the Term before it is
// not "Term before the DLQ write" (the defect is reported inside it).
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.InProgress()
	if len(msg.Data()) == 0 {
		_ = msg.Term()
		return c.deadLetter(ctx, msg, "empty")
	}
	return msg.Ack()
}

// moveToDLQ logs, acknowledges and reports success.
func (c *Consumer) moveToDLQ(ctx context.Context, msg jetstream.Msg) error {
	c.logger.Warn("moving to the DLQ", "subject", msg.Subject(), "size", len(msg.Data()))
	return msg.Ack() // want `moveToDLQ acknowledges the message without writing it anywhere`
}

// Quiet here: moveToDLQ is no DLQ write, so this Term is not "Term before
// the DLQ write c.moveToDLQ" (the defect is reported inside moveToDLQ).
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	if err := msg.Term(); err != nil {
		return err
	}
	return c.moveToDLQ(ctx, msg)
}

// Quiet: the payload goes to a database table the model cannot see.
func (c *Consumer) deadLetterRow(ctx context.Context, msg jetstream.Msg) error {
	if err := c.store.Insert(ctx, "dead_letters", msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Quiet: declared a writer (the audit table is written by a trigger the
// model cannot see).
//
//retrylint:dlq
func (c *Consumer) deadLetterForAudit(ctx context.Context, msg jetstream.Msg) error {
	return msg.Term()
}

// Quiet: a real writer.
func (c *Consumer) publishDeadLetter(ctx context.Context, msg jetstream.Msg) error {
	if _, err := c.js.Publish(ctx, "orders.DLQ", msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}
