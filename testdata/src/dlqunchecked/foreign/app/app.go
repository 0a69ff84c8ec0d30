// Package app registers the handlers park declares: the returns park's
// facts record (LostWriteFact) are reported here, at the registration,
// with the handler's return and the DLQ write as related locations. A
// handler that returns the write's error, and one registered where
// nothing Acks on nil, stay quiet.
package app

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"dlqunchecked/foreign/bus"
	"dlqunchecked/foreign/park"
)

func _(c jetstream.Consumer, s *park.Service) {
	bus.Subscribe(c, s.HandleParked) // want `handler \(\*park.Service\).HandleParked returning nil \(bus.Subscribe then Acks the message\) on the failure path of the DLQ write s.writeDLQ loses the message and its evidence: on failure NakWithDelay and return instead of acking`
}

func _(c jetstream.Consumer, s *park.Service) {
	bus.Subscribe(c, s.HandleAsync) // want `handler \(\*park.Service\).HandleAsync returning nil \(bus.Subscribe then Acks the message\) after the DLQ write s.js.PublishAsync, an async publish whose ack is not awaited: if it failed the message and its evidence are gone; await its future`
}

// Quiet: HandleParkedFine returns the write's error.
func _(c jetstream.Consumer, s *park.Service) {
	bus.Subscribe(c, s.HandleParkedFine)
}

// inspect calls its handler and Terms the message whatever it returns:
// nothing Acks on nil.
func inspect(ctx context.Context, msg jetstream.Msg, h bus.Handler) {
	_ = h(ctx, msg)
	_ = msg.Term()
}

// Quiet: registered where nothing Acks on nil.
func _(ctx context.Context, msg jetstream.Msg, s *park.Service) {
	inspect(ctx, msg, s.HandleParked)
}
