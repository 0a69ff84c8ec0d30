// Package retry is a service's shared retry and dead-letter helpers,
// used by another package: a delay classifier, a dead-letter writer, a
// helper that always Acks, and a helper that dead-letters and Terms.
// Nothing here is reported.
package retry

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

// Delay returns the retry delay err carries.
func Delay(err error) (time.Duration, bool) {
	var rd retryDelayer
	if errors.As(err, &rd) {
		return rd.RetryDelay(), true
	}
	return 0, false
}

// DeadLetter publishes the message to the DLQ stream.
func DeadLetter(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) error {
	_, err := js.Publish(ctx, "svc.DLQ", msg.Data())
	return err
}

// Done acknowledges the message.
func Done(msg jetstream.Msg) {
	_ = msg.Ack()
}

// Park dead-letters the message and Terms it, or retries it later when
// the write fails.
func Park(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) {
	if err := DeadLetter(ctx, js, msg); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
	_ = msg.Term()
}
