// Package router is a generic, decoding bus: Route decodes the payload
// into T and hands the value (not the message) to a handler, Acking when
// it returns nil; Chain wraps handlers in middleware.
package router

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// HandlerOf handles one decoded value.
type HandlerOf[T any] func(ctx context.Context, v T) error

// Route consumes c, decoding each payload and acking when h returns nil.
func Route[T any](c jetstream.Consumer, decode func([]byte) (T, error), h HandlerOf[T]) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		v, err := decode(msg.Data())
		if err != nil {
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		if err := h(context.Background(), v); err != nil {
			_ = msg.NakWithDelay(time.Second)
			return
		}
		_ = msg.Ack()
	})
}

// Timed is middleware: the closure it returns returns h's result.
func Timed[T any](h HandlerOf[T]) HandlerOf[T] {
	return func(ctx context.Context, v T) error {
		start := time.Now()
		defer func() { _ = time.Since(start) }()
		return h(ctx, v)
	}
}
