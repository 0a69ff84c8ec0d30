// Package guards proves CONTRACT.md version 3's "Swallowing writers and
// guards": a writer (another package's, known through its facts) that
// returns nil without writing when its receiver or connection is nil is
// swallowing, so a Term after it is reported although its error was
// checked; a writer whose guard returns an error, and one that only
// guards a nil message, are checked writers and stay quiet.
package guards

import (
	"context"
	"time"

	"termbeforedlq/v3/dlqpub"

	"github.com/nats-io/nats.go/jetstream"
)

type Worker struct {
	pub *dlqpub.Publisher
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if err := w.pub.DeadLetter(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term() // want `Term after the DLQ write w.pub.DeadLetter whose error is not checked`
}

// Quiet: the guard returns an error, which the caller checks.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if err := w.pub.Park(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Quiet: the guard concerns the message, not the writer.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if err := w.pub.DeadLetterMsg(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}
