// Package dlqpub holds dead-letter publishers for termbeforedlq/v3/guards,
// known there through their facts: one whose nil guard returns nil
// without writing (swallowing: its nil error does not mean stored), one
// whose guard returns an error, and one that only guards the message.
package dlqpub

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

var ErrNoDeadLetters = errors.New("dlqpub: no dead-letter stream configured")

type Publisher struct {
	js      jetstream.JetStream
	subject string
}

// DeadLetter publishes msg to the dead-letter subject; an unconfigured
// publisher does nothing.
func (p *Publisher) DeadLetter(ctx context.Context, msg jetstream.Msg) error {
	if p == nil || p.js == nil {
		return nil
	}
	_, err := p.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

// Park publishes msg to the dead-letter subject, or says why it cannot.
func (p *Publisher) Park(ctx context.Context, msg jetstream.Msg) error {
	if p == nil || p.js == nil {
		return ErrNoDeadLetters
	}
	_, err := p.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

// DeadLetterMsg publishes msg; a nil message has nothing to keep.
func (p *Publisher) DeadLetterMsg(ctx context.Context, msg jetstream.Msg) error {
	if msg == nil {
		return nil
	}
	_, err := p.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}
