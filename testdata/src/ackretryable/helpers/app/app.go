// Package app calls the helpers of package settle in the error branches
// of retryable producers and on transient paths.
package app

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/helpers/settle"
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
		log.Print(err)
		settle.Done(msg, "reserve failed") // want `call to settle.Done Acks the message in the error branch of retryable error err from reserve, which it does not classify`
		return
	}
	settle.Done(msg, "ok")
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		settle.Drop(msg, err) // want `call to settle.Drop Acks the message in the error branch of retryable error err from reserve`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		_ = settle.Finish(msg, nil) // want `call to settle.Finish Acks the message in the error branch`
	}
}

// Not reported: Finish Acks only a nil error, and it is given the error.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return settle.Finish(msg, err)
	}
	return settle.Finish(msg, nil)
}

// Not reported: Classify classifies before it settles.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) error {
	err := s.reserve(ctx, msg.Data())
	return settle.Classify(msg, err)
}

// Not reported: Drop is given another error than the branch's.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		settle.Drop(msg, errors.New("fresh"))
	}
}

// Not reported: SettleAs Acks only for AckIt, under a switch: not judged.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) error {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		return settle.SettleAs(msg, settle.RetryIt)
	}
	return settle.SettleAs(msg, settle.AckIt)
}
