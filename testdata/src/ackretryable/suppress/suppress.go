// Package suppress proves the suppression directives on ackretryable:
// //retrylint:ignore with a reason and //nolint:retrylint, trailing or on
// the line above. A plain comment does not exempt.
package suppress

import (
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

func produce() error {
	return retrykit.RetryAfter(errors.New("busy"), time.Second)
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		msg.Ack() //retrylint:ignore best-effort cache warmup, losing it is fine
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		//retrylint:ignore the outbox re-publishes on its own
		msg.Ack()
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		msg.Ack() //nolint:retrylint // telemetry only
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		//nolint:retrylint
		msg.Ack()
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		// acknowledged on purpose: comments do not exempt
		msg.Ack() // want `Ack in the error branch of retryable error err from produce`
	}
}
