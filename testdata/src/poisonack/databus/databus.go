// Package databus hands its handlers the payload, not the message: Handle
// calls h with msg.Data() and Acks when it returns nil.
package databus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Handle runs h on the payload of msg and settles msg.
func Handle(ctx context.Context, msg jetstream.Msg, h func(ctx context.Context, data []byte) error) { // want Handle:"acks when handler param 2 returns nil" Handle:"may Ack param 1; may NakWithDelay param 1"
	if err := h(ctx, msg.Data()); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
	_ = msg.Ack()
}
