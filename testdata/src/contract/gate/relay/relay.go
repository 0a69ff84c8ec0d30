// Package relay parks what it cannot process on a subject that package
// subjects names: nothing in this package but the constant's value says
// that park writes a dead-letter queue.
package relay

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"contract/gate/subjects"
)

type Relay struct {
	js jetstream.JetStream
}

func (r *Relay) park(ctx context.Context, msg jetstream.Msg) error { // want park:"writes DLQ"
	_, err := r.js.Publish(ctx, subjects.Parking, msg.Data())
	return err
}

// Not a writer: the audit subject is no dead-letter queue.
func (r *Relay) audit(ctx context.Context, msg jetstream.Msg) error {
	_, err := r.js.Publish(ctx, subjects.Audit, msg.Data())
	return err
}
