package svc

// Through the callee (CONTRACT.md version 3): a handler that returns
// f(...)'s result as it is makes f's `return nil` the bus's Ack, judged in
// f, transitively. A callee whose result the handler wraps with
// fmt.Errorf, or only tests, is not a handler: its nil does not reach the
// bus as nil.

import (
	"context"
	"fmt"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/bus"
)

func (s *Service) handleDelegating(ctx context.Context, msg jetstream.Msg) error {
	return s.apply(ctx, msg)
}

func (s *Service) apply(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		log.Printf("apply: %v", err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return s.applyNext(ctx, msg.Data())
}

// Two calls deep, with the payload only.
func (s *Service) applyNext(ctx context.Context, data []byte) error {
	if err := s.reserve(ctx, data); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

// Not reported: fmt.Errorf of a nil error is not nil, so the bus Naks.
func (s *Service) handleWrapping(ctx context.Context, msg jetstream.Msg) error {
	return fmt.Errorf("wrapping: %w", s.applyWrapped(ctx, msg))
}

func (s *Service) applyWrapped(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil
	}
	return nil
}

// Not reported: the handler returns its own error; the step's nil only
// lets it go on.
func (s *Service) handleStepping(ctx context.Context, msg jetstream.Msg) error {
	if err := s.step(ctx, msg); err != nil {
		return err
	}
	return nil
}

func (s *Service) step(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil
	}
	return nil
}

func (s *Service) RegisterDelegating(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, s.handleDelegating)
	_, _ = bus.Subscribe(c, s.handleWrapping)
	_, _ = bus.Subscribe(c, s.handleStepping)
}
