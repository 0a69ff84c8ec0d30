// Package fix proves the NakWithDelay suggested fix: the delay the
// classification bound (d, or rd.RetryDelay() for a carrier variable)
// replaces the bare Nak, keeping ack options; with no delay in scope, or a
// message type without NakWithDelay, there is no fix.
package fix

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Handler interface {
	Handle(ctx context.Context, data []byte) error
}

type Acker interface {
	Ack() error
	Nak() error
	Term() error
}

func produce() error {
	return retrykit.RetryAfter(errors.New("busy"), time.Second)
}

func _(ctx context.Context, h Handler, msg jetstream.Msg) {
	err := h.Handle(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		msg.Nak() // want `call NakWithDelay\(d\)`
		return
	}
	msg.Ack()
}

func _(ctx context.Context, h Handler, msg *nats.Msg) {
	err := h.Handle(ctx, msg.Data)
	delay, ok := retrykit.RetryDelay(err)
	if !ok {
		msg.Term()
		return
	}
	_ = msg.Nak(nats.Context(ctx)) // want `call NakWithDelay\(delay\)`
}

func _(ctx context.Context, h Handler, msg *nats.Msg, opts ...nats.AckOpt) {
	err := h.Handle(ctx, msg.Data)
	if delay, ok := retrykit.RetryDelay(err); ok {
		msg.Nak(opts...) // want `call NakWithDelay\(delay\)`
	}
}

func _(ctx context.Context, h Handler, msg jetstream.Msg) {
	err := h.Handle(ctx, msg.Data())
	var rd retrykit.Retryable
	if errors.As(err, &rd) {
		msg.Nak() // want `call NakWithDelay\(rd\.RetryDelay\(\)\)`
	}
}

func _(ctx context.Context, h Handler, msg jetstream.Msg) {
	switch e := h.Handle(ctx, msg.Data()).(type) {
	case *retrykit.TransientError:
		msg.Nak() // want `call NakWithDelay\(e\.RetryDelay\(\)\)`
	case nil:
		msg.Ack()
	}
}

// No delay in scope: the message says how to get it, no fix.
func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		msg.Nak() // want `look up the delay with errors\.As\(err, &rd\)`
	}
}

// No NakWithDelay on the message type: no fix.
func _(ctx context.Context, h Handler, msg Acker, data []byte) {
	err := h.Handle(ctx, data)
	if d, ok := retrykit.RetryDelay(err); ok {
		msg.Nak() // want `call NakWithDelay\(d\)`
	}
}

// The delay variable is shadowed at the Nak: no fix.
func _(ctx context.Context, h Handler, msg jetstream.Msg) {
	err := h.Handle(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		d := "later"
		_ = d
		msg.Nak() // want `look up the delay`
	}
}

// stockCheck returns a concrete carrier: a non-nil result is transient
// and its delay is at hand.
func stockCheck(sku string) *retrykit.TransientError {
	if sku == "" {
		return &retrykit.TransientError{Op: "stock", Delay: time.Second}
	}
	return nil
}

func _(msg jetstream.Msg) {
	if te := stockCheck(string(msg.Data())); te != nil {
		msg.Nak() // want `bare Nak redelivers retryable error te from stockCheck at once and drops its retry delay: call NakWithDelay\(te\.RetryDelay\(\)\)`
		return
	}
	msg.Ack()
}

// An action variable: delay holds the classification's delay wherever
// retry is chosen.
func _(ctx context.Context, h Handler, msg jetstream.Msg) {
	const ack, retry, dead = 0, 1, 2
	act, delay := ack, time.Duration(0)
	if err := h.Handle(ctx, msg.Data()); err != nil {
		if d, ok := retrykit.RetryDelay(err); ok {
			act, delay = retry, d
		} else {
			act = dead
		}
	}
	switch act {
	case retry:
		_ = msg.Nak() // want `call NakWithDelay\(delay\)`
	case dead:
		_ = msg.Term()
	default:
		_ = msg.Ack()
	}
}
