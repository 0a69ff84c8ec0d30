// Package notreported holds look-alikes barenak must not report:
// NakWithDelay with any delay, a bare Nak() where the delay is known to be
// zero (also after the positive delay was handled above), failed or other
// classifications, replaced errors, success paths, action variables set to
// retry on doubtful paths or changed out of sight, deferred and spawned
// Naks, and Nak methods on types that are not messages.
package notreported

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Order struct{ ID string }

var (
	ErrBusy      = errors.New("inventory busy")
	ErrMalformed = errors.New("malformed order")
)

type Handler interface {
	Handle(ctx context.Context, o Order) error
}

type Service struct {
	handler Handler
	handle  func(ctx context.Context, o Order) error
}

func (s *Service) reserve(ctx context.Context, o Order) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 5*time.Second)
	}
	return nil
}

func (s *Service) validate(o Order) error {
	if o.ID == "" {
		return ErrMalformed
	}
	return nil
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		if d, ok := retrykit.RetryDelay(err); ok {
			msg.NakWithDelay(d)
			return
		}
		msg.Term()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		msg.NakWithDelay(5 * time.Second)
		return
	}
	msg.Ack()
}

// The table of CONTRACT.md: delay 0 maps to Nak().
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if d, ok := retrykit.RetryDelay(err); ok {
		if d > 0 {
			msg.NakWithDelay(d)
		} else {
			msg.Nak()
		}
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	d, ok := retrykit.RetryDelay(err)
	if !ok {
		msg.Term()
		return
	}
	if d <= 0 {
		msg.Nak()
		return
	}
	msg.NakWithDelay(d)
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if d, ok := retrykit.RetryDelay(err); ok && d == 0 {
		msg.Nak()
	}
}

// The bus layer's own shape: an early return when the delay is positive.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		if delay, ok := retrykit.RetryDelay(err); ok {
			if delay > 0 {
				msg.NakWithDelay(delay)
				return
			}
			msg.Nak()
			return
		}
		msg.Term()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		if d, ok := retrykit.RetryDelay(err); ok && d > 0 {
			msg.NakWithDelay(d)
		} else if ok {
			msg.Nak()
		} else {
			msg.Term()
		}
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	var rd retrykit.Retryable
	if errors.As(err, &rd) && rd.RetryDelay() <= 0 {
		msg.Nak()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	d, ok := retrykit.RetryDelay(err)
	if !ok {
		return
	}
	switch d {
	case 0:
		msg.Nak()
	default:
		msg.NakWithDelay(d)
	}
}

// Decoding errors are not retryable.
func (s *Service) _(msg jetstream.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		msg.Nak()
	}
}

// The classification failed: the error is permanent (Term is the right
// call, but that is not barenak's concern).
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		d, ok := retrykit.RetryDelay(err)
		if !ok {
			msg.Nak()
			return
		}
		msg.NakWithDelay(d)
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, Order{})
	var te *retrykit.TransientError
	if err != nil && !errors.As(err, &te) {
		msg.Nak()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		if errors.Is(err, ErrBusy) {
			msg.Nak()
			return
		}
		msg.Term()
	}
}

// Some paths to the Nak identified the error as another one: doubtful.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		if errors.Is(err, context.Canceled) {
			log.Print("shutting down")
		}
		msg.Nak()
	}
}

// err replaced by a flattened error: the retry intent is gone.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		err = fmt.Errorf("reserve: %v", err)
		log.Print(err)
		msg.Nak()
	}
}

// The error branch rejoined the normal flow before the Nak.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		log.Printf("reserve: %v", err)
	}
	msg.Nak()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		defer msg.Nak()
		go func() {
			msg.Nak()
		}()
	}
}

// Redeliver is a Nak method on something that is not a message.
type Redeliver struct{}

func (Redeliver) Nak() error { return nil }

func (s *Service) _(ctx context.Context, r Redeliver) {
	if err := s.reserve(ctx, Order{}); err != nil {
		r.Nak()
	}
}

// The transient branch ended with a return; the Nak is on the permanent side.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if retrykit.IsRetryable(err) {
		msg.NakWithDelay(time.Second)
		return
	}
	msg.Nak()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	switch e := err.(type) {
	case *retrykit.TransientError:
		msg.NakWithDelay(e.RetryDelay())
	default:
		msg.Nak()
	}
}

// The positive delay returned above: a later classification of the same
// error that succeeds finds a delay <= 0.
func (s *Service) _(msg jetstream.Msg, err error) {
	if d, ok := retrykit.RetryDelay(err); ok && d > 0 {
		_ = msg.NakWithDelay(d)
		return
	}
	if retrykit.IsRetryable(err) {
		_ = msg.Nak()
		return
	}
	_ = msg.Term()
}

func (s *Service) _(msg jetstream.Msg, err error) {
	if d, ok := retrykit.RetryDelay(err); ok {
		if d > 0 {
			_ = msg.NakWithDelay(d)
			return
		}
	}
	if retrykit.IsRetryable(err) {
		_ = msg.Nak()
	}
}

func (s *Service) _(msg jetstream.Msg, err error) {
	var rd retrykit.Retryable
	if errors.As(err, &rd) && rd.RetryDelay() > 0 {
		_ = msg.NakWithDelay(rd.RetryDelay())
		return
	}
	if d, ok := retrykit.RetryDelay(err); ok {
		_ = msg.Nak()
		_ = d
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, Order{})
	if err != nil {
		if d, ok := retrykit.RetryDelay(err); ok && d > 0 {
			_ = msg.NakWithDelay(d)
			return
		}
	}
	if retrykit.IsRetryable(err) {
		_ = msg.Nak()
	}
}

// An action variable set to retry only where the delay is zero, or where
// the error was never classified, or on both transient and other paths.
func (s *Service) _(msg jetstream.Msg, err error) {
	const ack, retry, dead = 0, 1, 2
	act := ack
	if err != nil {
		if d, ok := retrykit.RetryDelay(err); ok && d <= 0 {
			act = retry
		} else {
			act = dead
		}
	}
	switch act {
	case retry:
		_ = msg.Nak()
	case dead:
		_ = msg.Term()
	default:
		_ = msg.Ack()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	const ack, retry = 0, 1
	act := ack
	if err := s.handler.Handle(ctx, Order{}); err != nil {
		act = retry
	}
	if act == retry {
		_ = msg.Nak()
	}
}

func (s *Service) _(msg jetstream.Msg, err error, busy bool) {
	const ack, retry = 0, 1
	act := ack
	if _, ok := retrykit.RetryDelay(err); ok {
		act = retry
	} else if busy {
		act = retry
	}
	if act == retry {
		_ = msg.Nak()
	}
}

// The action is changed in a function literal, or through a pointer.
func (s *Service) _(msg jetstream.Msg, err error, retryAll func(func())) {
	const ack, retry = 0, 1
	act := ack
	if _, ok := retrykit.RetryDelay(err); ok {
		act = retry
	}
	retryAll(func() { act = retry })
	if act == retry {
		_ = msg.Nak()
	}
}

func (s *Service) _(msg jetstream.Msg, err error, decide func(*int)) {
	const ack, retry = 0, 1
	act := ack
	if _, ok := retrykit.RetryDelay(err); ok {
		act = retry
	}
	decide(&act)
	if act == retry {
		_ = msg.Nak()
	}
}

// Local classifiers, known by their facts.
func retryDelayOf(err error) (time.Duration, bool) {
	var rd retrykit.Retryable
	if errors.As(err, &rd) {
		return rd.RetryDelay(), true
	}
	return 0, false
}

func isRetryable(err error) bool {
	var rd retrykit.Retryable
	return errors.As(err, &rd)
}

func settle(m jetstream.Msg, err error) {
	if d, ok := retryDelayOf(err); ok && d > 0 {
		_ = m.NakWithDelay(d)
		return
	}
	if isRetryable(err) {
		_ = m.Nak()
		return
	}
	_ = m.Term()
}

// The false side of errors.AsType ends the transient path, even in a
// producer's error branch: the error provably holds no carrier there.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, Order{}); err != nil {
		if _, ok := errors.AsType[*retrykit.TransientError](err); !ok {
			msg.Nak()
			return
		}
		msg.NakWithDelay(time.Second)
	}
}

// errors.AsType into a type that is not a carrier identifies the error; it
// says nothing of retry intent.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if _, ok := errors.AsType[*json.SyntaxError](err); ok {
		msg.Nak()
		return
	}
	msg.Ack()
}
