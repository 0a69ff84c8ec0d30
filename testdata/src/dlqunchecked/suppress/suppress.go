// Package suppress proves //retrylint:ignore and //nolint:retrylint silence
// dlqunchecked, at the end of the reported line or alone on the line above
// it, and that other comments do not.
package suppress

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

type Relay struct {
	js jetstream.JetStream
}

func (r *Relay) park(ctx context.Context, msg jetstream.Msg) error {
	_, err := r.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

func _(r *Relay, ctx context.Context, msg jetstream.Msg) error {
	msg.Ack() //retrylint:ignore the stream keeps a replica for a week
	return r.park(ctx, msg)
}

func _(r *Relay, ctx context.Context, msg jetstream.Msg) error {
	//nolint:retrylint // audited: the replica is the evidence
	msg.Ack()
	return r.park(ctx, msg)
}

// An ordinary comment does not exempt.
func _(r *Relay, ctx context.Context, msg jetstream.Msg) error {
	// The DLQ write is best effort.
	msg.Ack() // want `Ack before the DLQ write r\.park`
	return r.park(ctx, msg)
}
