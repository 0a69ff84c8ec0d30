// Package bus is a small bus layer: Subscribe and Process call a handler
// and Ack the message when it returns nil (HandlerFact); Go and Retry call
// a function without acking anything.
package bus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Handler handles one message.
type Handler func(ctx context.Context, msg jetstream.Msg) error

// Subscribe consumes c, acking a message when its handler returns nil.
func Subscribe(c jetstream.Consumer, h Handler) (jetstream.ConsumeContext, error) { // want Subscribe:"acks when handler param 1 returns nil"
	return c.Consume(func(msg jetstream.Msg) {
		if err := h(context.Background(), msg); err != nil {
			_ = msg.NakWithDelay(time.Second)
			return
		}
		_ = msg.Ack()
	})
}

// Process runs h for one message: Ack on success, a delayed retry on error.
func Process(ctx context.Context, msg jetstream.Msg, h func(context.Context, jetstream.Msg) error) { // want Process:"acks when handler param 2 returns nil" Process:"may Ack param 1; may NakWithDelay param 1"
	err := h(ctx, msg)
	if err == nil {
		_ = msg.Ack()
		return
	}
	_ = msg.NakWithDelay(5 * time.Second)
}

// Go runs f in a goroutine; its error is logged, nothing is acked.
func Go(f func() error) {
	go func() {
		if err := f(); err != nil {
			println(err.Error())
		}
	}()
}

// Retry calls f until it succeeds or attempts run out; nothing is acked.
func Retry(attempts int, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// Logging is middleware: the closure it returns calls next and returns
// its result.
func Logging(next Handler) Handler { // want Logging:"wraps handler param 0"
	return func(ctx context.Context, msg jetstream.Msg) error {
		println("handling", msg.Subject())
		return next(ctx, msg)
	}
}

// Swallow is not middleware: its closure drops what f returns.
func Swallow(f Handler) Handler {
	return func(ctx context.Context, msg jetstream.Msg) error {
		_ = f(ctx, msg)
		return nil
	}
}
