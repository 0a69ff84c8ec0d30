// Package relay parks what it cannot process on a subject that package
// subjects names: nothing in this package but the constant's value says
// that the publish writes a dead-letter queue.
package relay

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"dlqunchecked/crosspkg/subjects"
)

type Relay struct {
	js jetstream.JetStream
}

// The parking publish's error is dropped, then the message is acked.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) {
	r.js.Publish(ctx, subjects.Parking, msg.Data())
	msg.Ack() // want `Ack after the DLQ write r.js.Publish whose error is not checked`
}

// Not reported: the audit subject is no dead-letter queue.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) {
	r.js.Publish(ctx, subjects.Audit, msg.Data())
	msg.Ack()
}

// Not reported: the parking publish is checked before the Ack.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := r.js.Publish(ctx, subjects.Parking, msg.Data()); err != nil {
		log.Printf("park: %v", err)
		return msg.NakWithDelay(5e9)
	}
	return msg.Ack()
}

// park is a DLQ writer only because of the subject it publishes to.
func (r *Relay) park(ctx context.Context, msg jetstream.Msg) error {
	_, err := r.js.Publish(ctx, subjects.Parking, msg.Data())
	return err
}

// The parking helper's error is dropped, then the message is acked.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) {
	_ = r.park(ctx, msg)
	msg.Ack() // want `Ack after the DLQ write r.park whose error is not checked`
}
