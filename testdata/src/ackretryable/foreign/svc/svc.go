// Package svc declares handlers that another package registers: nothing
// here says they are handlers, so the nil returns in a retryable
// producer's error branch are exported (DropFact) and reported where they
// are registered (ackretryable/foreign/app).
package svc

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/foreign/retry"
)

type Service struct{}

func (s *Service) reserve(ctx context.Context) error { return &retry.Busy{D: time.Second} }

func (s *Service) HandleOrder(ctx context.Context, msg jetstream.Msg) error { // want HandleOrder:"drops a retryable error if a caller acks on nil"
	if err := s.reserve(ctx); err != nil {
		log.Print(err)
		return nil
	}
	return nil
}

// HandleFine returns the error: no fact.
func (s *Service) HandleFine(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx); err != nil {
		return err
	}
	return nil
}

type Refund struct{ ID string }

// HandleTyped never sees the message: app registers it through bus.JSON.
func HandleTyped(ctx context.Context, r Refund) error { // want HandleTyped:"drops a retryable error if a caller acks on nil"
	if err := (&Service{}).reserve(ctx); err != nil {
		log.Print(err)
		return nil
	}
	return nil
}

// handleHidden has the shape but is unexported: no other package can
// register it, so it carries no fact.
func handleHidden(ctx context.Context, msg jetstream.Msg) error {
	if err := (&Service{}).reserve(ctx); err != nil {
		return nil
	}
	return nil
}
