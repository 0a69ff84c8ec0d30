// Package app registers the handlers orders declares: the decode-failure
// returns orders' facts record (DecodeDropFact) are reported here, at the
// registration, with the handler's return as a related location. A
// handler that returns the decode error, and one registered where nothing
// Acks on nil, stay quiet.
package app

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"poisonack/foreign/bus"
	"poisonack/foreign/orders"
)

func _(c jetstream.Consumer) {
	bus.Subscribe(c, orders.HandleCreated) // want `handler orders.HandleCreated returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message: the undecodable payload disappears`
}

// Quiet: HandleUpdated returns the decode error.
func _(c jetstream.Consumer) {
	bus.Subscribe(c, orders.HandleUpdated)
}

// inspect calls its handler and Naks the message whatever it returns:
// nothing Acks on nil.
func inspect(ctx context.Context, msg jetstream.Msg, h bus.Handler) {
	_ = h(ctx, msg)
	_ = msg.Nak()
}

// Quiet: registered where nothing Acks on nil.
func _(ctx context.Context, msg jetstream.Msg) {
	inspect(ctx, msg, orders.Inspect)
}
