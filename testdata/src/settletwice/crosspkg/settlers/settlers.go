// Package settlers holds message helpers another package calls: one that
// always Acks, one that always Terms, and one that Naks only on error.
// Nothing here is reported: each settles once.
package settlers

import (
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Done acknowledges the message, whatever happened before.
func Done(msg jetstream.Msg) {
	_ = msg.Ack()
}

// Drop terminates the message.
func Drop(msg jetstream.Msg, reason string) {
	_ = msg.TermWithReason(reason)
}

// Settle acknowledges a nil error and retries any other later.
func Settle(msg jetstream.Msg, err error) {
	if err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
	_ = msg.Ack()
}
