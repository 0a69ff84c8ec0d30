// Package strict proves barenak's -strict option: every bare Nak() on an
// error path is reported, whatever the error's origin, except where the
// delay is known to be zero; Naks off error paths stay quiet.
package strict

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Handler interface {
	Handle(ctx context.Context, data []byte) error
}

type Worker struct {
	h    Handler
	pool func() error
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.h.Handle(ctx, msg.Data()); err != nil {
		msg.Nak() // want `bare Nak on an error path redelivers at once: look up the error's retry delay and call NakWithDelay`
		return
	}
	msg.Ack()
}

func (w *Worker) _(msg jetstream.Msg) {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		msg.Nak() // want `bare Nak on an error path`
	}
}

func (w *Worker) _(msg jetstream.Msg) {
	err := w.pool()
	if err == nil {
		msg.Ack()
		return
	}
	msg.Nak() // want `bare Nak on an error path`
}

// Transient paths keep their precise message under -strict.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	err := w.h.Handle(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		msg.Nak() // want `call NakWithDelay\(d\)`
	}
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	err := w.h.Handle(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok && d <= 0 {
		msg.Nak()
	}
}

func (w *Worker) _(msg jetstream.Msg) {
	msg.Nak()
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.h.Handle(ctx, msg.Data()); err != nil {
		msg.NakWithDelay(time.Second)
	}
}
