package svc

import (
	"context"
	"log"
)

type Refund struct{ ID string }

// HandleTyped never sees the message: main registers it through bus.JSON,
// and its nil is the bus's Ack all the same.
func (s *Service) HandleTyped(ctx context.Context, r Refund) error {
	if err := s.reserve(ctx); err != nil {
		log.Print(err)
		return nil
	}
	return nil
}

func (s *Service) HandleTypedFine(ctx context.Context, r Refund) error {
	if err := s.reserve(ctx); err != nil {
		return err
	}
	return nil
}

// Refresh has a typed handler's shape, but nothing registers it: its nil
// is nobody's Ack.
func (s *Service) Refresh(ctx context.Context, r Refund) error {
	if err := s.reserve(ctx); err != nil {
		log.Print(err)
		return nil
	}
	return nil
}
