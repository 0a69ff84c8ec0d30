// Package a holds the shapes ackretryable must report: Ack, AckSync or
// DoubleAck in the error branch of a retryable producer's error, before the
// branch rejoins the normal flow, with no classification of the error in
// between.
package a

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Order struct{ ID, SKU string }

type Service struct {
	attempts map[string]int
}

// charge is a retryable producer: the payment provider asks to come back.
func (s *Service) charge(ctx context.Context, o Order) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 30*time.Second)
	}
	return nil
}

// fulfil is a producer through %w and a multi-result signature.
func (s *Service) fulfil(ctx context.Context, o Order) (string, error) {
	if err := s.charge(ctx, o); err != nil {
		return "", fmt.Errorf("fulfil %s: %w", o.ID, err)
	}
	return "shipment-1", nil
}

func decode(data []byte) Order { return Order{ID: string(data)} }

// Acker is a handler-side message interface.
type Acker interface {
	Ack() error
	Nak() error
	Term() error
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, decode(msg.Data())); err != nil {
		log.Printf("charge: %v", err)
		msg.Ack() // want `Ack in the error branch of retryable error err from charge acknowledges a transient failure as done: classify err first \(errors\.As into a RetryDelay\(\) carrier\) and NakWithDelay its retry delay`
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.charge(ctx, decode(msg.Data())); err != nil {
		_ = msg.DoubleAck(ctx) // want `DoubleAck in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, msg *nats.Msg) {
	if err := s.charge(ctx, decode(msg.Data)); err != nil {
		msg.AckSync(nats.Context(ctx)) // want `AckSync in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, msg *nats.Msg) {
	if err := s.charge(ctx, decode(msg.Data)); err != nil {
		msg.Ack(nats.Context(ctx)) // want `Ack in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	id, err := s.fulfil(ctx, decode(msg.Data()))
	if err == nil {
		log.Printf("shipped %s", id)
		msg.Ack()
		return
	}
	log.Printf("fulfil failed: %v", err)
	msg.Ack() // want `Ack in the error branch of retryable error err from fulfil`
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = s.charge(ctx, decode(msg.Data())); err == nil {
			break
		}
		time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
	}
	if err != nil {
		log.Printf("giving up: %v", err)
	}
	if err != nil {
		msg.Ack() // want `Ack in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.charge(ctx, decode(msg.Data()))
	if err != nil {
		err = fmt.Errorf("order %s: %w", msg.Subject(), err)
		log.Print(err)
		msg.Ack() // want `Ack in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	switch err := s.charge(ctx, decode(msg.Data())); {
	case err == nil:
		msg.Ack()
	default:
		msg.Ack() // want `Ack in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, msg Acker, data []byte) {
	if err := s.charge(ctx, decode(data)); err != nil {
		msg.Ack() // want `Ack in the error branch of retryable error err from charge`
	}
}

func (s *Service) _(ctx context.Context, cons jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return cons.Consume(func(msg jetstream.Msg) {
		if err := s.charge(ctx, decode(msg.Data())); err != nil {
			msg.Ack() // want `Ack in the error branch of retryable error err from charge`
			return
		}
		msg.Ack()
	})
}

// Giving up after a few attempts still acknowledges a transient failure.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	o := decode(msg.Data())
	if err := s.charge(ctx, o); err != nil {
		s.attempts[o.ID]++
		if s.attempts[o.ID] > 3 {
			msg.Ack() // want `Ack in the error branch of retryable error err from charge`
			return
		}
		msg.NakWithDelay(time.Second)
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if s.charge(ctx, decode(msg.Data())) != nil {
		msg.Ack() // want `Ack in the error branch of a retryable error from charge`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.charge(ctx, decode(msg.Data()))
	if err == nil {
		msg.Ack()
		return
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return
	}
	msg.Ack() // want `Ack in the error branch of retryable error err from charge`
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := retrykit.RetryAfter(errors.New("stock sync running"), time.Minute); err != nil {
		msg.Ack() // want `Ack in the error branch of retryable error err from RetryAfter`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if _, err := s.fulfil(ctx, decode(msg.Data())); err != nil {
		defer log.Print("acked a failed order")
		msg.Ack() // want `Ack in the error branch of retryable error err from fulfil`
	}
}
