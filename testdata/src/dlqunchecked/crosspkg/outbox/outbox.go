// Package outbox acks messages around the dead-letter helpers of package
// sink: every finding needs a fact from the other package.
package outbox

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"dlqunchecked/crosspkg/sink"
)

type Worker struct {
	sink *sink.Sink
}

// The checked writer's error is only logged, then the message is acked.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	if err := w.sink.Park(ctx, msg, "poison"); err != nil {
		log.Printf("park: %v", err)
	}
	msg.Ack() // want `Ack on the failure path of the DLQ write w.sink.Park loses the message and its evidence`
}

// The swallowing writer drops the write's error itself.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	w.sink.Bury(ctx, msg)
	msg.Ack() // want `Ack after the DLQ write w.sink.Bury whose error is not checked`
}

// Ack first, then the checked write.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack() // want `Ack before the DLQ write w.sink.Park`
	return w.sink.Park(ctx, msg, "late")
}

// Not reported: the checked write's failure Naks with a delay and returns.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if err := w.sink.Park(ctx, msg, "poison"); err != nil {
		return msg.NakWithDelay(5e9)
	}
	return msg.Ack()
}

// Not reported: Reconcile's error is about the reconciliation, not the
// dead letter it may write on a rare path.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	if err := w.sink.Reconcile(ctx, msg); err != nil {
		log.Printf("reconcile: %v", err)
		return msg.Ack()
	}
	return msg.Ack()
}
