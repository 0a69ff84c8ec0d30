package svc

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"
)

func (s *Service) writeDLQ(ctx context.Context, msg jetstream.Msg) error { return nil }

func (s *Service) HandleParked(ctx context.Context, msg jetstream.Msg) error {
	if err := s.writeDLQ(ctx, msg); err != nil {
		log.Print(err)
	}
	return nil
}

func (s *Service) HandleParkedFine(ctx context.Context, msg jetstream.Msg) error {
	if err := s.writeDLQ(ctx, msg); err != nil {
		return err
	}
	return nil
}
