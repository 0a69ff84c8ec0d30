// Package suppress proves the suppression directives on barenak:
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
		msg.Nak() //retrylint:ignore the stream's MaxDeliver is 2 and a DLQ consumer takes over
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		//retrylint:ignore replayed by the reconciler, which paces itself
		msg.Nak()
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		msg.Nak() //nolint:retrylint // legacy consumer, removed in v3
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		//nolint:errcheck,retrylint
		msg.Nak()
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		// immediate redelivery is fine here: comments do not exempt
		msg.Nak() // want `bare Nak redelivers retryable error err from produce at once`
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		// a misspelled check list is no reason: it suppresses nothing
		//retrylint:ignore barenack,ackretryable the stream's MaxDeliver is 2
		msg.Nak() // want `bare Nak redelivers retryable error err from produce at once`
	}
}

func _(msg jetstream.Msg) {
	if err := produce(); err != nil {
		//nolint:barenack // misspelled: suppresses nothing
		msg.Nak() // want `bare Nak redelivers retryable error err from produce at once`
	}
}
