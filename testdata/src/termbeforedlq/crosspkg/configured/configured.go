// Package configured proves -retrycontract.dlq-funcs: the ledger writes a
// DLQ only because configuration names it, and a function calling it
// becomes a writer through facts.
package configured

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"termbeforedlq/crosspkg/dlqhelper"
)

// Payments consumes payment events.
type Payments struct {
	ledger *dlqhelper.Ledger
}

// reject records the payment in the ledger, the service's dead-letter
// store.
func (p *Payments) reject(ctx context.Context, msg jetstream.Msg) error {
	return p.ledger.Record(ctx, msg.Data())
}

func _(p *Payments, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write p\.ledger\.Record`
	return p.ledger.Record(ctx, msg.Data())
}

func _(p *Payments, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write p\.reject`
	return p.reject(ctx, msg)
}

func _(p *Payments, ctx context.Context, msg jetstream.Msg) error {
	if err := p.reject(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}
