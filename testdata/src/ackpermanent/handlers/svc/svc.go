// Package svc registers handlers with a bus that Acks their nil result:
// a handler that returns nil for a permanent failure acks it away, in a
// service that dead-letters elsewhere.
package svc

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackpermanent/handlers/bus"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Service struct {
	js     jetstream.JetStream
	charge func(context.Context, []byte) error
	log    *slog.Logger
}

func (s *Service) publishDLQ(ctx context.Context, msg jetstream.Msg) error {
	_, err := s.js.Publish(ctx, "billing.DLQ", msg.Data())
	return err
}

func (s *Service) Start(c jetstream.Consumer) error {
	if _, err := bus.Subscribe(c, s.handleCharge); err != nil {
		return err
	}
	_, err := bus.Subscribe(c, s.handleRefund)
	return err
}

// The permanent failure is logged and nil returned: the bus Acks it.
func (s *Service) handleCharge(ctx context.Context, msg jetstream.Msg) error {
	if err := s.charge(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			return err
		}
		s.log.Error("charge failed for good", "err", err)
		return nil // want `returning nil \(bus.Subscribe then Acks the message\) after err was classified as a permanent failure`
	}
	return nil
}

// Quiet: dead-lettered, checked, then nil.
func (s *Service) handleRefund(ctx context.Context, msg jetstream.Msg) error {
	if err := s.charge(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			return err
		}
		if err := s.publishDLQ(ctx, msg); err != nil {
			return err
		}
		return nil
	}
	return nil
}
