// Package orders declares handlers that another package registers: here
// nothing says they are handlers, so their decode-failure returns are
// exported as facts and reported where they are registered.
package orders

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

type Order struct {
	ID string `json:"id"`
}

var errEmpty = errors.New("empty order")

func HandleCreated(ctx context.Context, msg jetstream.Msg) error { // want HandleCreated:"drops an undecodable payload if a caller acks on nil"
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil // reported where it is registered (cmd/retrylint TestForeignHandler)
	}
	if o.ID == "" {
		return errEmpty
	}
	return nil
}

// Returns the decode error: its caller does not Ack.
func HandleUpdated(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return err
	}
	return nil
}

// Returns nil on a decode failure but is never registered with a bus that
// Acks: quiet, with its fact.
func Inspect(ctx context.Context, msg jetstream.Msg) error { // want Inspect:"drops an undecodable payload if a caller acks on nil"
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil
	}
	return nil
}
