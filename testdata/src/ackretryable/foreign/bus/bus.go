// Package bus Acks what its handlers return nil for; JSON adapts a typed
// handler.
package bus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type Handler func(ctx context.Context, msg jetstream.Msg) error

func Subscribe(c jetstream.Consumer, h Handler) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		if err := h(context.Background(), msg); err != nil {
			_ = msg.NakWithDelay(time.Second)
			return
		}
		_ = msg.Ack()
	})
}
