package svc

import (
	"context"
	"errors"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"example.com/shop/retry"
)

var errDuplicate = errors.New("duplicate")

func (s *Service) HandlePermanent(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx); err != nil {
		var busy *retry.Busy
		if errors.As(err, &busy) {
			return err
		}
		log.Print(err)
		return nil
	}
	return nil
}

func (s *Service) HandlePermanentFine(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx); err != nil {
		if errors.Is(err, errDuplicate) {
			return nil
		}
		return err
	}
	return nil
}
