// Package app registers handlers that billing and ledger declare: the
// Acks of a permanent failure without evidence that billing's facts
// record (PermanentDropFact) are reported here, at the registration, with
// the handler's return as a related location. A handler that dead-letters
// first or decides with errors.Is, one of a package with no DLQ write,
// and one registered where nothing Acks on nil stay quiet.
package app

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"ackpermanent/handlers/billing"
	"ackpermanent/handlers/bus"
	"ackpermanent/handlers/ledger"
)

func _(c jetstream.Consumer, h *billing.Handlers) {
	bus.Subscribe(c, h.HandleCharge) // want `handler \(\*billing.Handlers\).HandleCharge returning nil \(bus.Subscribe then Acks the message\) after err was classified as a permanent failure drops the message without evidence`
}

func _(c jetstream.Consumer, h *billing.Handlers) {
	bus.Subscribe(c, h.Audit) // want `handler \(\*billing.Handlers\).Audit returning nil \(bus.Subscribe then Acks the message\)`
}

// Quiet: HandleRefund dead-letters and checks the write first.
func _(c jetstream.Consumer, h *billing.Handlers) {
	bus.Subscribe(c, h.HandleRefund)
}

// Quiet: HandleDuplicate decides about a known error with errors.Is.
func _(c jetstream.Consumer, h *billing.Handlers) {
	bus.Subscribe(c, h.HandleDuplicate)
}

// Quiet: ledger writes no DLQ anywhere; Acking is its policy.
func _(c jetstream.Consumer, l *ledger.Ledger) {
	bus.Subscribe(c, l.HandlePosting)
}

// inspect calls its handler and Terms the message whatever it returns:
// nothing Acks on nil, so what HandleCharge returns acks nothing.
func inspect(ctx context.Context, msg jetstream.Msg, h bus.Handler) {
	_ = h(ctx, msg)
	_ = msg.Term()
}

// Quiet: registered where nothing Acks on nil.
func _(ctx context.Context, msg jetstream.Msg, h *billing.Handlers) {
	inspect(ctx, msg, h.HandleCharge)
}
