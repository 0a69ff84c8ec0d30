package svc

// Typed handlers registered with a router that looks its handlers up
// through a method and wraps them in middleware before calling them
// (CONTRACT.md version 3, "Routes kept in maps"): their `return nil`, a
// naked return of a nil named error, and the callee's `return nil` they
// pass on are the router's Ack. Observers, kept in a map the router only
// logs errors of, are not handlers.

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/mwrouter"
)

type Placed struct{ ID string }

func (s *Service) onPlaced(ctx context.Context, ev Placed) error {
	if err := s.reserve(ctx, []byte(ev.ID)); err != nil {
		log.Printf("reserve %s: %v", ev.ID, err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes mwrouter.Register Ack the message`
	}
	return nil
}

func (s *Service) onPlacedNamed(ctx context.Context, ev Placed) (err error) {
	if rerr := s.reserve(ctx, []byte(ev.ID)); rerr != nil {
		log.Printf("reserve %s: %v", ev.ID, rerr)
		return // want `retryable error rerr from reserve is dropped: returning nil makes mwrouter.Register Ack the message`
	}
	return
}

func (s *Service) onPlacedDelegating(ctx context.Context, ev Placed) error {
	return s.applyPlaced(ctx, ev)
}

func (s *Service) applyPlaced(ctx context.Context, ev Placed) error {
	if err := s.reserve(ctx, []byte(ev.ID)); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes mwrouter.Register Ack the message`
	}
	return nil
}

// Not reported: the typed handler returns the error for the router to
// Nak.
func (s *Service) onPlacedRight(ctx context.Context, ev Placed) error {
	if err := s.reserve(ctx, []byte(ev.ID)); err != nil {
		return err
	}
	return nil
}

// Not reported: an observer's nil result acknowledges nothing.
func (s *Service) auditPlaced(ctx context.Context, ev Placed) error {
	if err := s.reserve(ctx, []byte(ev.ID)); err != nil {
		log.Printf("audit %s: %v", ev.ID, err)
		return nil
	}
	return nil
}

func (s *Service) MiddlewareRoutes(mw ...mwrouter.Middleware) *mwrouter.Router {
	r := mwrouter.New(mw...)
	mwrouter.Register(r, "orders.placed", s.onPlaced)
	mwrouter.Register(r, "orders.placed.named", s.onPlacedNamed)
	mwrouter.Register(r, "orders.placed.v2", s.onPlacedDelegating)
	mwrouter.Register(r, "orders.placed.v3", s.onPlacedRight)
	mwrouter.Observe(r, "orders.placed", s.auditPlaced)
	return r
}

func (s *Service) onAnyOrder(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes m.HandleFunc Ack the message`
	}
	return nil
}

func (s *Service) MuxRoutes(m *mwrouter.Mux) {
	m.HandleFunc("orders.>", s.onAnyOrder)
}
