// Package app passes its messages to the helpers of package acks: Ack,
// written against Acker, Acks the message in the error branch of a
// retryable producer; Retry NakWithDelays it; the other calls are quiet.
package app

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/ackers/acks"
	"retrykit"
)

type Service struct{}

func (s *Service) reserve(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		return retrykit.RetryAfter(errors.New("busy"), time.Second)
	}
	return nil
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		acks.Ack(msg) // want `call to acks.Ack Acks the message in the error branch of retryable error err from reserve, which it does not classify`
		return
	}
	acks.Ack(msg)
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		acks.Retry(msg, time.Second)
		return
	}
	acks.Ack(msg)
}

// lease is a message (it has Ack and Nak) that also closes.
type lease struct{}

func (lease) Ack() error   { return nil }
func (lease) Nak() error   { return nil }
func (lease) Close() error { return nil }

// Finish's parameter type has Close, no ack method: Finish is no helper
// that Acks, and its call is quiet.
func (s *Service) _(ctx context.Context, l lease) {
	if err := s.reserve(ctx, nil); err != nil {
		acks.Finish(l)
	}
}
