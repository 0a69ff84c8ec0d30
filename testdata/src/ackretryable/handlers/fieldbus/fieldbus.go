// Package fieldbus keeps its handler in a struct field: NewConsumer stores
// it, process calls it and Acks when it returns nil.
package fieldbus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type Handler func(ctx context.Context, msg jetstream.Msg) error

type Consumer struct {
	handle Handler
	retry  time.Duration
}

func NewConsumer(h Handler) *Consumer { // want NewConsumer:"acks when handler param 0 returns nil"
	return &Consumer{handle: h, retry: time.Second}
}

func (c *Consumer) SetHandler(h Handler) { // want SetHandler:"acks when handler param 0 returns nil"
	c.handle = h
}

func (c *Consumer) process(ctx context.Context, msg jetstream.Msg) { // want process:"may Ack param 1; may NakWithDelay param 1"
	if err := c.handle(ctx, msg); err != nil {
		_ = msg.NakWithDelay(c.retry)
		return
	}
	_ = msg.Ack()
}

// Start consumes cons with the stored handler.
func (c *Consumer) Start(cons jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return cons.Consume(func(msg jetstream.Msg) { c.process(context.Background(), msg) })
}
