// Package boolbus calls handlers that answer with a bool: Consume Acks a
// message when its handler returns true and retries it later when it
// returns false (a handler parameter, HandlerFact); Drain Acks every
// message whatever the filter says (no handler parameter: the filter's
// true decides nothing about acking).
package boolbus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Consume processes c's messages with process.
func Consume(c jetstream.Consumer, process func(context.Context, jetstream.Msg) bool) (jetstream.ConsumeContext, error) { // want Consume:"acks when handler param 1 returns nil"
	return c.Consume(func(msg jetstream.Msg) {
		if process(context.Background(), msg) {
			_ = msg.Ack()
		} else {
			_ = msg.NakWithDelay(5 * time.Second)
		}
	})
}

// Drain acks every message, counting those keep accepts.
func Drain(c jetstream.Consumer, keep func(jetstream.Msg) bool) (jetstream.ConsumeContext, error) {
	n := 0
	return c.Consume(func(msg jetstream.Msg) {
		if keep(msg) {
			n++
			_ = msg.Ack()
			return
		}
		_ = msg.Ack()
	})
}
