// Package broken proves settletwice does not panic on code with type
// errors and reports nothing whose types are broken; a well-typed defect
// in the same package is still reported.
package broken

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

func _(ctx context.Context, msg UnknownMsg) {
	msg.Ack()
	msg.Nak()
}

func _(ctx context.Context, msg jetstream.Msg) {
	msg.Ack()
	if err := undefinedWork(ctx); err != nil {
		msg.Nak()
	}
}

func _(ctx context.Context, msg jetstream.Msg, work func() error) {
	msg.Ack()
	if err := work(); err != nil {
		msg.Nak() // want `Nak after Ack is ignored`
	}
}
