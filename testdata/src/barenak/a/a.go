// Package a holds the shapes barenak must report: a bare Nak() on a
// transient path, where the error's retry delay is known or derivable and
// is dropped, so the server redelivers at once; also where the path is
// transient through an action variable set to retry only after a
// successful classification.
package a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Order struct {
	ID  string `json:"id"`
	SKU string `json:"sku"`
}

var ErrMalformed = errors.New("malformed order")

type Service struct {
	js      jetstream.JetStream
	handler Handler
}

// Handler is the application's handler: an interface, so the origin of
// its errors is unknown until they are classified.
type Handler interface {
	Handle(ctx context.Context, o Order) error
}

// reserve is a retryable producer: it returns a carrier from retrykit.
func (s *Service) reserve(ctx context.Context, o Order) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 5*time.Second)
	}
	return nil
}

// process is a producer through %w.
func (s *Service) process(ctx context.Context, data []byte) error {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return ErrMalformed
	}
	if err := s.reserve(ctx, o); err != nil {
		return fmt.Errorf("process %s: %w", o.ID, err)
	}
	return nil
}

// isTransient is a retry predicate by name.
func isTransient(err error) bool {
	var te *retrykit.TransientError
	return errors.As(err, &te) || retrykit.IsRetryable(err)
}

// Acker is a handler-side message interface without NakWithDelay.
type Acker interface {
	Ack() error
	Nak() error
	Term() error
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.process(ctx, msg.Data()); err != nil {
		log.Printf("process: %v", err)
		msg.Nak() // want `bare Nak redelivers retryable error err from process at once and drops its retry delay: look up the delay with errors\.As\(err, &rd\) and call NakWithDelay\(rd\.RetryDelay\(\)\)`
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	var o Order
	_ = json.Unmarshal(msg.Data(), &o)
	err := s.handler.Handle(ctx, o)
	if d, ok := retrykit.RetryDelay(err); ok {
		log.Printf("order %s: retry in %s", o.ID, d)
		_ = msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: call NakWithDelay\(d\)`
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if err == nil {
		msg.Ack()
		return
	}
	d, ok := retrykit.RetryDelay(err)
	if !ok {
		msg.Term()
		return
	}
	log.Printf("retry in %s", d)
	msg.Nak() // want `call NakWithDelay\(d\)`
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	var rd retrykit.Retryable
	if errors.As(err, &rd) {
		msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: call NakWithDelay\(rd\.RetryDelay\(\)\)`
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	var te *retrykit.TransientError
	switch {
	case err == nil:
		msg.Ack()
	case errors.As(err, &te):
		log.Printf("%s is down", te.Op)
		msg.Nak() // want `call NakWithDelay\(te\.RetryDelay\(\)\)`
	default:
		msg.Term()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	switch e := s.handler.Handle(ctx, Order{}).(type) {
	case nil:
		msg.Ack()
	case *retrykit.TransientError:
		msg.Nak() // want `call NakWithDelay\(e\.RetryDelay\(\)\)`
	default:
		log.Printf("permanent: %v", e)
		msg.Term()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.handler.Handle(ctx, Order{}); retrykit.IsRetryable(err) {
		msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: look up the delay with errors\.As\(err, &rd\)`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if isTransient(err) {
		msg.Nak() // want `bare Nak redelivers transient error err at once`
		return
	}
	msg.Term()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.process(ctx, msg.Data()); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		msg.Nak() // want `bare Nak redelivers retryable error err from process at once`
		return
	}
	msg.Ack()
}

// A *nats.Msg handler: the legacy Nak(opts...) carries no delay either.
func (s *Service) _(ctx context.Context, msg *nats.Msg) {
	if err := s.process(ctx, msg.Data); err != nil {
		msg.Nak(nats.Context(ctx)) // want `bare Nak redelivers retryable error err from process at once`
		return
	}
	msg.Ack(nats.Context(ctx))
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	d, ok := retrykit.RetryDelay(err)
	if !ok {
		msg.Term()
		return
	}
	if d < time.Minute {
		msg.Nak() // want `call NakWithDelay\(d\)`
		return
	}
	msg.NakWithDelay(d)
}

// A consumer BackOff does not make a bare Nak safe: the server applies it
// only to ack-wait expiry.
func (s *Service) _(ctx context.Context, stream jetstream.Stream) error {
	cons, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable: "orders",
		BackOff: []time.Duration{time.Second, 5 * time.Second, 30 * time.Second},
	})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(msg jetstream.Msg) {
		if err := s.process(ctx, msg.Data()); err != nil {
			msg.Nak() // want `bare Nak redelivers retryable error err from process at once`
			return
		}
		msg.Ack()
	})
	return err
}

func (s *Service) _(ctx context.Context, msg Acker, data []byte) {
	if err := s.process(ctx, data); err != nil {
		msg.Nak() // want `bare Nak redelivers retryable error err from process at once`
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.process(ctx, msg.Data())
	if err != nil {
		err = fmt.Errorf("order handler: %w", err)
		log.Print(err)
		msg.Nak() // want `bare Nak redelivers retryable error err from process at once`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	switch err := s.process(ctx, msg.Data()); {
	case err == nil:
		msg.Ack()
	default:
		msg.Nak() // want `bare Nak redelivers retryable error err from process at once`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.process(ctx, msg.Data()); err != nil {
		if errors.Is(err, ErrMalformed) {
			msg.Term()
			return
		}
		msg.Nak() // want `bare Nak redelivers retryable error err from process at once`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if err == nil {
		msg.Ack()
		return
	}
	if rd, ok := err.(retrykit.Retryable); ok {
		log.Printf("retry in %s", rd.RetryDelay())
		msg.Nak() // want `call NakWithDelay\(rd\.RetryDelay\(\)\)`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	d, ok := retrykit.RetryDelay(err)
	if !ok || d <= 0 {
		msg.Term()
		return
	}
	msg.Nak() // want `call NakWithDelay\(d\)`
}

// A func value's error is of unknown origin, but once classified it is
// transient all the same.
func (s *Service) _(ctx context.Context, msg jetstream.Msg, handle func(context.Context, []byte) error) error {
	err := handle(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok && d > time.Second {
		return msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: call NakWithDelay\(d\)`
	}
	return msg.Ack()
}

// The earlier bound is not a zero delay: d <= time.Minute may be positive.
func (s *Service) _(msg jetstream.Msg, err error) {
	if d, ok := retrykit.RetryDelay(err); ok && d > time.Minute {
		_ = msg.NakWithDelay(d)
		return
	}
	if retrykit.IsRetryable(err) {
		_ = msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: look up the delay with errors\.As\(err, &rd\)`
	}
}

// A type assertion sees the top of the chain only: a wrapped carrier with
// a positive delay reaches the Nak.
func (s *Service) _(msg jetstream.Msg, err error) {
	if rd, ok := err.(retrykit.Retryable); ok && rd.RetryDelay() > 0 {
		_ = msg.NakWithDelay(rd.RetryDelay())
		return
	}
	if retrykit.IsRetryable(err) {
		_ = msg.Nak() // want `bare Nak redelivers transient error err at once`
	}
}

// An action variable: retry is chosen only where RetryDelay succeeded, and
// delay holds its delay.
func (s *Service) _(msg jetstream.Msg, err error) {
	const ack, retry, dead = 0, 1, 2
	act, delay := ack, time.Duration(0)
	if err != nil {
		if d, ok := retrykit.RetryDelay(err); ok {
			act, delay = retry, d
		} else {
			act = dead
		}
	}
	switch act {
	case retry:
		_ = msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: call NakWithDelay\(delay\)`
	case dead:
		_ = msg.Term()
	default:
		_ = msg.Ack()
	}
	_ = delay
}

type action int

const (
	actAck action = iota
	actRetry
	actDead
)

func (s *Service) _(msg jetstream.Msg, err error) {
	var act action
	var rd retrykit.Retryable
	switch {
	case err == nil:
	case errors.As(err, &rd):
		act = actRetry
	default:
		act = actDead
	}
	if act == actRetry {
		_ = msg.Nak() // want `call NakWithDelay\(rd\.RetryDelay\(\)\)`
	}
}

// The delay variable is not set on every path that chooses retry: the
// message says how to get the delay.
func (s *Service) _(msg jetstream.Msg, err error) {
	const ack, retry = 0, 1
	act, delay := ack, time.Duration(0)
	if d, ok := retrykit.RetryDelay(err); ok && d > time.Second {
		act, delay = retry, d
	} else if ok {
		act = retry
	}
	if act == retry {
		_ = msg.Nak() // want `look up the delay with errors\.As\(err, &rd\) and call NakWithDelay\(rd\.RetryDelay\(\)\)`
	}
	_ = delay
}

func (s *Service) _(msg jetstream.Msg, err error) {
	retry := false
	if retrykit.IsRetryable(err) {
		retry = true
	}
	if retry {
		_ = msg.Nak() // want `bare Nak redelivers transient error err at once`
		return
	}
	_ = msg.Term()
}

// errors.AsType (Go 1.26) classifies like errors.As: its ok side is a
// transient path when the type argument is a carrier.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.handler.Handle(ctx, Order{})
	if rd, ok := errors.AsType[retrykit.Retryable](err); ok {
		log.Printf("retrying %v", rd)
		msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: call NakWithDelay\(rd\.RetryDelay\(\)\)`
		return
	}
	msg.Ack()
}

func (s *Service) _(ctx context.Context, msg *nats.Msg) {
	err := s.handler.Handle(ctx, Order{})
	te, ok := errors.AsType[*retrykit.TransientError](err)
	if !ok {
		msg.Term()
		return
	}
	log.Printf("transient: %s", te.Op)
	msg.Nak() // want `call NakWithDelay\(te\.RetryDelay\(\)\)`
}
