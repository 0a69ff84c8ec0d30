// Package dlqhelper hides dead-letter writes behind a helper package, as
// services do: a publisher whose method publishes to "orders.DLQ", a sink
// with an OnDeadLetter hook field, a store used through a field named dlq,
// a function marked //retrylint:dlq, and a ledger only configuration
// (-retrycontract.dlq-funcs) can name. The consumer package finds them
// through the contract model's facts.
package dlqhelper

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

// Publisher parks messages on the orders DLQ stream.
type Publisher struct {
	js jetstream.JetStream
}

// Park publishes the message to the DLQ subject.
func (p *Publisher) Park(ctx context.Context, msg jetstream.Msg) error {
	_, err := p.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

// Forward parks the message and only logs a failure: it returns nothing.
func (p *Publisher) Forward(ctx context.Context, msg jetstream.Msg) {
	_ = p.Park(ctx, msg)
}

// Sink is configured with a hook that parks a message.
type Sink struct {
	OnDeadLetter func(ctx context.Context, data []byte) error
}

// Store is a dead-letter table; nothing in its names says so.
type Store struct{}

// Put inserts a row.
func (s *Store) Put(ctx context.Context, subject string, data []byte) error { return nil }

// Quarantine writes the quarantine bucket.
//
//retrylint:dlq
func Quarantine(ctx context.Context, data []byte) error { return nil }

// Ledger records rejected payments in an accounting system.
type Ledger struct{}

// Record writes one rejected payment.
func (l *Ledger) Record(ctx context.Context, data []byte) error { return nil }
