// This file is copied into the handlers package of a copy of examples/ by
// integrations/gopls/check.sh. keep writes a dead-letter queue whose name
// does not say so: only a .retrylint.yaml naming it in dlq-funcs makes it
// one, and HandleAudit's findings follow the file: with it, the Term
// comes before the DLQ write (termbeforedlq); without it, the Term drops
// the undecodable payload (poisonack).

package handlers

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

// keep stores a message on orders.kept for a person to look at.
func keep(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) error {
	_, err := js.Publish(ctx, "orders.kept", msg.Data())
	return err
}

// HandleAudit processes one orders.audit message.
func (h *Orders) HandleAudit(ctx context.Context, msg jetstream.Msg) {
	var o OrderPlaced
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		_ = msg.Term() // fixture: term
		_ = keep(ctx, h.JS, msg)
		return
	}
	_ = msg.Ack()
}
