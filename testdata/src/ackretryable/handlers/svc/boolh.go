package svc

// Bool handlers (CONTRACT.md version 3): boolbus.Consume Acks on true and
// retries on false, so `return true` in a producer's error branch acks the
// transient failure away. Returning false there is the retry; a filter
// whose caller acks every message decides nothing.

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/boolbus"
)

func (s *Service) processOrder(ctx context.Context, msg jetstream.Msg) bool {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		log.Printf("reserve: %v", err)
		return true // want `retryable error err from reserve is dropped: returning true makes boolbus.Consume Ack the message`
	}
	return true
}

// Not reported: false makes the bus retry later.
func (s *Service) processRetry(ctx context.Context, msg jetstream.Msg) bool {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return false
	}
	return true
}

// Not reported: Drain acks every message whatever keep says.
func (s *Service) keepOrder(msg jetstream.Msg) bool {
	if err := s.reserve(context.Background(), msg.Data()); err != nil {
		return true
	}
	return false
}

func (s *Service) RegisterBool(c jetstream.Consumer) {
	_, _ = boolbus.Consume(c, s.processOrder)
	_, _ = boolbus.Consume(c, s.processRetry)
	_, _ = boolbus.Drain(c, s.keepOrder)
}
