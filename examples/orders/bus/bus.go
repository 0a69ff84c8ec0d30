// Package bus holds the order service's JetStream helpers: dead-lettering
// and rejecting messages.
package bus

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DLQSubject is where dead letters go.
const DLQSubject = "orders.DLQ"

// DeadLetter publishes msg with the failure to the DLQ stream and returns
// the publish error.
func DeadLetter(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg, cause error) error {
	dl := nats.NewMsg(DLQSubject + "." + msg.Subject())
	dl.Data = msg.Data()
	dl.Header.Set("Retrylint-Error", cause.Error())
	_, err := js.PublishMsg(ctx, dl)
	return err
}

// Reject terminates a message the service can never process.
func Reject(msg jetstream.Msg, reason string) {
	if err := msg.TermWithReason(reason); err != nil {
		slog.Warn("term failed", "err", err)
	}
}

// Describe annotates an error for operators. It flattens the error to
// text, so any retry delay it carried is lost.
func Describe(op string, err error) error {
	return fmt.Errorf("%s failed: %s", op, err)
}

// Handler handles one message; Run Acks the message when it returns nil.
type Handler func(ctx context.Context, msg jetstream.Msg) error

// Run calls h for msg and settles msg by its outcome: Ack on success, a
// delayed retry otherwise.
func Run(ctx context.Context, msg jetstream.Msg, h Handler) {
	if err := h(ctx, msg); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
	_ = msg.Ack()
}
