// Package unclassified proves barenak's default report of a bare Nak() on
// the error branch of a call whose error was never classified: the
// message names the call (a method of another package, an interface
// method, a func value), and transient paths keep their precise message.
package unclassified

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"barenak/unclassified/store"
	"retrykit"
)

type Handler interface {
	Handle(ctx context.Context, data []byte) error
}

type Worker struct {
	h      Handler
	orders *store.Orders
	pool   func() error
	log    *slog.Logger
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.h.Handle(ctx, msg.Data()); err != nil {
		msg.Nak() // want `bare Nak on the unclassified error of w.h.Handle redelivers at once: in an outage of what it calls the message loops up to MaxDeliver; call NakWithDelay with a backoff \(or classify err first\)`
		return
	}
	msg.Ack()
}

// The error of another package's method, logged and wrapped first.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	err := w.orders.Save(ctx, msg.Subject(), msg.Data())
	if err != nil {
		err = fmt.Errorf("save: %w", err)
		w.log.Error("save failed", "err", err)
		_ = msg.Nak() // want `unclassified error of w.orders.Save`
		return
	}
	_ = msg.Ack()
}

// An early return on success leaves the error path.
func (w *Worker) _(msg jetstream.Msg) {
	err := w.pool()
	if err == nil {
		msg.Ack()
		return
	}
	msg.Nak() // want `unclassified error of w.pool`
}

// The error result of a call with two results.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	data, _, err := w.orders.Load(ctx, msg.Subject())
	if err != nil {
		msg.Nak() // want `unclassified error of w.orders.Load`
		return
	}
	_ = data
	msg.Ack()
}

// Transient paths keep their precise message and fix.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	err := w.h.Handle(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		msg.Nak() // want `call NakWithDelay\(d\)`
	}
}

// reserve is a retryable producer.
func (w *Worker) reserve(ctx context.Context) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 5*time.Second)
	}
	return nil
}

var errMalformed = errors.New("malformed order")

func (w *Worker) validate(data []byte) error {
	if len(data) == 0 {
		return errMalformed
	}
	return nil
}

// The transient error was replaced by another call's, never classified
// (version 2 left these quiet as unknown origins).
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.reserve(ctx); err != nil {
		err = w.validate(msg.Data())
		if err != nil {
			msg.Nak() // want `unclassified error of w.validate`
		}
	}
}

func (w *Worker) _(msg jetstream.Msg, err error) {
	retry := false
	if _, ok := retrykit.RetryDelay(err); ok {
		retry = true
	}
	err = w.validate(msg.Data())
	if retry && err != nil {
		_ = msg.Nak() // want `unclassified error of w.validate`
	}
}
