// Package notreported holds look-alikes ackretryable must not report: Acks
// on success paths, after the error branch rejoined the normal flow, after
// any classification of the error (errors.As, errors.Is, comparisons, type
// switches and assertions, RetryDelay-style lookups, predicates), for
// errors that no producer returns, and calls that are not Acks.
package notreported

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Order struct{ ID string }

var ErrDuplicate = errors.New("duplicate order")

type Payments interface {
	Charge(ctx context.Context, o Order) error
}

type Service struct {
	payments Payments
	notify   func(ctx context.Context, o Order) error
}

func (s *Service) charge(ctx context.Context, o Order) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 30*time.Second)
	}
	if o.ID == "" {
		return ErrDuplicate
	}
	return nil
}

func isPermanent(err error) bool { return errors.Is(err, ErrDuplicate) }

func statusOf(err error) int { return 500 }

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		msg.NakWithDelay(time.Second)
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		log.Printf("charge: %v", err)
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if errors.Is(err, ErrDuplicate) {
			msg.Ack()
			return
		}
		msg.NakWithDelay(time.Second)
	}
}

// The bus layer's shape: the !ok side is permanent.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if d, ok := retrykit.RetryDelay(err); ok {
			msg.NakWithDelay(d)
			return
		}
		msg.Ack()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		var rd retrykit.Retryable
		if !errors.As(err, &rd) {
			msg.Ack()
			return
		}
		msg.NakWithDelay(rd.RetryDelay())
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	switch err := s.charge(ctx, Order{}).(type) {
	case nil:
		msg.Ack()
	case *retrykit.TransientError:
		msg.NakWithDelay(err.RetryDelay())
	default:
		msg.Ack()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if isPermanent(err) {
			msg.Ack()
		}
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if !retrykit.IsRetryable(err) {
			msg.Ack()
			return
		}
		msg.NakWithDelay(5 * time.Second)
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if err == ErrDuplicate {
			msg.Ack()
		}
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil && strings.Contains(err.Error(), "duplicate") {
		msg.Ack()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if statusOf(err) == 409 {
			msg.Ack()
		}
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if _, ok := err.(interface{ Temporary() bool }); !ok {
			msg.Ack()
		}
	}
}

// Errors of unknown origin: an interface method, a func value.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.payments.Charge(ctx, Order{}); err != nil {
		msg.Ack()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.notify(ctx, Order{}); err != nil {
		msg.Ack()
	}
}

// Decoding errors carry no retry intent.
func (s *Service) _(msg jetstream.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		msg.Ack()
	}
}

// The error was replaced by one that does not wrap it.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.charge(ctx, Order{})
	if err != nil {
		err = fmt.Errorf("charge failed: %s", "see logs")
		msg.Ack()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	if err := s.charge(ctx, Order{}); err != nil {
		go func() {
			msg.Ack()
		}()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		msg.InProgress()
		msg.Term()
	}
}

// Receipt has an Ack method but is not a message.
type Receipt struct{}

func (Receipt) Ack() error { return nil }

func (s *Service) _(ctx context.Context, r Receipt) {
	if err := s.charge(ctx, Order{}); err != nil {
		r.Ack()
	}
}

// A classification on some path to the Ack: the handler decided.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		if d, ok := retrykit.RetryDelay(err); ok && d > time.Hour {
			log.Printf("long outage: %s", d)
		}
		msg.Ack()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		switch err {
		case ErrDuplicate:
			msg.Ack()
		default:
			msg.NakWithDelay(time.Second)
		}
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, Order{}); err != nil {
		fmt.Printf("charge: %v\n", err)
		msg.NakWithDelay(time.Second)
		return
	}
	msg.Ack()
}
