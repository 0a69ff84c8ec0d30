// Package broken has type errors: ackretryable must not panic and must not
// report anything derived from a broken type, while still reporting the
// well-typed handler.
package broken

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
		msg.Ack() // want `Ack in the error branch of retryable error err from produce`
	}
}

func _(msg UnknownMsg) {
	if err := produce(); err != nil {
		msg.Ack()
	}
}

func _(msg jetstream.Msg) {
	if err := missing(); err != nil {
		msg.Ack()
	}
	switch e := produce().(type) {
	case *NoSuchType:
		msg.Ack()
	default:
		_ = e
	}
	if err := produce(); err != undefinedSentinel {
		msg.Ack(1)
	}
}

func _(msg jetstream.Msg) {
	for {
		if err := produce(); err != nil {
			continue
		}
		break
	}
	msg.Ack(
}
