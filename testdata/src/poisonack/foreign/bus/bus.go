// Package bus is a small bus layer: Subscribe calls a handler and Acks
// the message when it returns nil, Naks it with a delay otherwise.
package bus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Handler handles one message.
type Handler func(ctx context.Context, msg jetstream.Msg) error

// Subscribe consumes c, acking a message when its handler returns nil.
func Subscribe(c jetstream.Consumer, h Handler) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		if err := h(context.Background(), msg); err != nil {
			_ = msg.NakWithDelay(time.Second)
			return
		}
		_ = msg.Ack()
	})
}
