package svc

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"example.com/shop/retry"
)

type Service struct{}

func (s *Service) reserve(ctx context.Context) error { return &retry.Busy{D: time.Second} }

func (s *Service) HandleOrder(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx); err != nil {
		log.Print(err)
		return nil
	}
	return nil
}

func (s *Service) HandleFine(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx); err != nil {
		return err
	}
	return nil
}
