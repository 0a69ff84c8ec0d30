// Package deferred holds deferred Acks: `defer msg.Ack()` Acks at every
// return after it, the error branch of a retryable producer's error
// included.
package deferred

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Service struct{}

func (s *Service) charge(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		return retrykit.RetryAfter(errors.New("provider busy"), 10*time.Second)
	}
	return nil
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	if err := s.charge(ctx, msg.Data()); err != nil {
		log.Printf("charge: %v", err)
		return // want `the deferred Ack runs at this return in the error branch of retryable error err from charge and acknowledges the transient failure as done`
	}
	log.Print("charged")
}

func (s *Service) _(ctx context.Context, msg *nats.Msg) error {
	defer msg.Ack()
	err := s.charge(ctx, msg.Data)
	if err != nil {
		return err // want `the deferred Ack runs at this return`
	}
	return nil
}

// Not reported: every early return settles the message first.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	if err := s.charge(ctx, msg.Data()); err != nil {
		_ = msg.NakWithDelay(10 * time.Second)
		return
	}
}

// Not reported: the early return is the settlement.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) error {
	defer msg.Ack()
	if err := s.charge(ctx, msg.Data()); err != nil {
		return msg.NakWithDelay(10 * time.Second)
	}
	return nil
}

// Not reported: the error is classified before the return.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	if err := s.charge(ctx, msg.Data()); err != nil {
		if _, ok := retrykit.RetryDelay(err); ok {
			log.Print("retryable")
		}
		return
	}
}

// Not reported: the return before the defer ran.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, msg.Data()); err != nil {
		return
	}
	defer msg.Ack()
	log.Print("charged")
}

// Not reported: a deferred Ack inside a branch is not pending everywhere.
func (s *Service) _(ctx context.Context, msg jetstream.Msg, fast bool) {
	if fast {
		defer msg.Ack()
	}
	if err := s.charge(ctx, msg.Data()); err != nil {
		return
	}
}

// The errcheck-clean forms of a deferred Ack: a literal that only Acks.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	defer func() { _ = msg.Ack() }()
	if err := s.charge(ctx, msg.Data()); err != nil {
		log.Printf("charge: %v", err)
		return // want `the deferred Ack runs at this return in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	defer func() {
		if err := msg.Ack(); err != nil {
			log.Printf("ack: %v", err)
		}
	}()
	if err := s.charge(ctx, msg.Data()); err != nil {
		return // want `the deferred Ack runs at this return`
	}
}

// Not reported: the deferred literal Acks only on success; the error
// branch Naks with the delay itself.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	acked := false
	defer func() {
		if acked {
			_ = msg.Ack()
		}
	}()
	if err := s.charge(ctx, msg.Data()); err != nil {
		_ = msg.NakWithDelay(10 * time.Second)
		return
	}
	acked = true
}

// Not reported: the deferred literal does more than Ack.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	defer func() {
		if r := recover(); r != nil {
			_ = msg.Term()
			return
		}
		_ = msg.Ack()
	}()
	if err := s.charge(ctx, msg.Data()); err != nil {
		_ = msg.NakWithDelay(10 * time.Second)
		return
	}
}
