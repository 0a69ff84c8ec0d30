// Package app registers the handlers svc declares: the drops svc's facts
// record (DropFact) are reported here, at the registration, with the
// handler's return as a related location. A handler that returns its
// error, and one registered where nothing Acks on nil, stay quiet.
package app

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/foreign/bus"
	"ackretryable/foreign/svc"
)

func _(c jetstream.Consumer, s *svc.Service) {
	bus.Subscribe(c, s.HandleOrder) // want `retryable error err from reserve is dropped by handler \(\*svc.Service\).HandleOrder: returning nil makes bus.Subscribe Ack the message; return the error \(or NakWithDelay its retry delay\)`
}

func _(c jetstream.Consumer) {
	bus.Subscribe(c, bus.JSON(svc.HandleTyped)) // want `retryable error err from reserve is dropped by handler svc.HandleTyped: returning nil makes bus.Subscribe Ack`
}

// Quiet: HandleFine returns the error.
func _(c jetstream.Consumer, s *svc.Service) {
	bus.Subscribe(c, s.HandleFine)
}

// inspect calls its handler and Naks the message whatever it returns:
// nothing Acks on nil.
func inspect(ctx context.Context, msg jetstream.Msg, h bus.Handler) {
	_ = h(ctx, msg)
	_ = msg.Nak()
}

// Quiet: registered where nothing Acks on nil.
func _(ctx context.Context, msg jetstream.Msg, s *svc.Service) {
	inspect(ctx, msg, s.HandleOrder)
}
