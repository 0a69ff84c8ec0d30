package svc

// Handlers kept in a router's map (CONTRACT.md version 3, "Routes kept in
// maps"): message handlers stored by Handle, unexported typed handlers
// stored by the generic Register, and functions stored in a map the
// router never Acks for.

import (
	"context"
	"log"

	"github.com/nats-io/nats.go"

	"ackretryable/handlers/routebus"
)

type Restocked struct{ SKU string }

func (s *Service) onReserve(ctx context.Context, m *nats.Msg) error {
	if err := s.reserve(ctx, m.Data); err != nil {
		log.Printf("reserve: %v", err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes r.Handle Ack the message`
	}
	return nil
}

func (s *Service) onRestocked(ctx context.Context, ev Restocked) error {
	if err := s.reserve(ctx, []byte(ev.SKU)); err != nil {
		log.Printf("reserve %s: %v", ev.SKU, err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes routebus.Register Ack the message`
	}
	return nil
}

// Not reported: the typed handler returns the error.
func (s *Service) onRestockedRight(ctx context.Context, ev Restocked) error {
	return s.reserve(ctx, []byte(ev.SKU))
}

// Not reported: a start hook's nil result acknowledges nothing.
func (s *Service) warmUp(ctx context.Context, name string) error {
	if err := s.reserve(ctx, []byte(name)); err != nil {
		log.Printf("warm-up %s: %v", name, err)
		return nil
	}
	return nil
}

func (s *Service) Routes() *routebus.Router {
	r := routebus.New()
	r.Handle("stock.reserve", s.onReserve)
	routebus.Register(r, "stock.restocked", s.onRestocked)
	routebus.Register[Restocked](r, "stock.restocked.v2", s.onRestockedRight)
	r.OnStart("warm-up", s.warmUp)
	return r
}
