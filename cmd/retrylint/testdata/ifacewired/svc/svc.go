// Package svc registers its handlers on api.Bus; it cannot see which
// implementation main gives it.
package svc

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"example.com/wired/api"
	"example.com/wired/retry"
)

type Service struct {
	bus   api.Bus
	hooks api.Hooks
}

func New(b api.Bus, h api.Hooks) *Service { return &Service{bus: b, hooks: h} }

func reserve(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		return &retry.Busy{D: time.Second}
	}
	return nil
}

func (s *Service) handleOrder(ctx context.Context, msg jetstream.Msg) error {
	if err := reserve(ctx, msg.Data()); err != nil {
		log.Printf("reserve: %v", err)
		return nil
	}
	return nil
}

func (s *Service) handleFine(ctx context.Context, msg jetstream.Msg) error {
	return reserve(ctx, msg.Data())
}

func (s *Service) onStop(ctx context.Context, msg jetstream.Msg) error {
	if err := reserve(ctx, nil); err != nil {
		return nil
	}
	return nil
}

func (s *Service) Start(ctx context.Context) error {
	if err := s.bus.Subscribe(ctx, "orders", s.handleOrder); err != nil {
		return err
	}
	s.hooks.OnStop(s.onStop)
	return s.bus.Subscribe(ctx, "orders-fine", s.handleFine)
}
