// Package broken proves dlqunchecked does not panic on code with type
// errors and reports nothing whose types are broken; a well-typed defect
// in the same package is still reported.
package broken

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"
)

type Relay struct {
	js      jetstream.JetStream
	missing UnknownSink
}

func _(ctx context.Context, msg jetstream.Msg) {
	_ = undefinedDLQWrite(ctx, msg)
	msg.Ack()
}

func _(r *Relay, ctx context.Context, msg UnknownMsg) {
	_, _ = r.js.Publish(ctx, "orders.DLQ", msg.Data())
	msg.Ack()
}

func _(r *Relay, ctx context.Context, msg jetstream.Msg) {
	if _, err := r.js.Publish(ctx, "orders.DLQ", msg.Data()); err != nil {
		log.Print(err)
	}
	msg.Ack() // want `Ack on the failure path of the DLQ write r.js.Publish`
}
