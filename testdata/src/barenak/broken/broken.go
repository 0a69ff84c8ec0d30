// Package broken has type errors: barenak must not panic and must not
// report anything derived from a broken type, while still reporting the
// well-typed handler.
package broken

import (
	"context"
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
		msg.Nak() // want `bare Nak redelivers retryable error err from produce at once`
	}
}

func _(msg UnknownMsg) {
	if err := produce(); err != nil {
		msg.Nak()
	}
}

func _(ctx context.Context, msg jetstream.Msg) {
	err := missing(ctx)
	if d, ok := retrykit.RetryDelay(err); ok {
		msg.Nak(d)
	}
}

func _(msg jetstream.Msg) {
	var rd undefinedCarrier
	if errors.As(produce(), &rd) {
		msg.NakWithDelay(rd.RetryDelay())
	}
	switch e := produce().(type) {
	case *NoSuchType:
		msg.Nak()
	case nil:
	default:
		_ = e
	}
	if d, ok := notAFunc(produce()); ok && d > 0 {
		msg.Nak()
	}
}

func _(msg jetstream.Msg) {
	for {
		if err := produce(); err != nil {
			continue
		}
		break
	}
	msg.Nak(
}
