// Package codec decodes orders for the workers of package worker, and
// dead-letters with a checked writer.
package codec

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

type Order struct {
	ID string `json:"id"`
}

// UnmarshalOrder decodes an order: a decode by its name.
func UnmarshalOrder(data []byte) (*Order, error) {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, err
	}
	return &o, nil
}

// Park dead-letters a message and returns the write's error.
func Park(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) error {
	_, err := js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

// ParkAndTerm dead-letters and terminates: judged inside.
func ParkAndTerm(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) error {
	if err := Park(ctx, js, msg); err != nil {
		return msg.NakWithDelay(5e9)
	}
	return msg.Term()
}
