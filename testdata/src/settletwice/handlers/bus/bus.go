// Package bus holds bus layers that call a handler and Ack the message
// when it returns nil: Subscribe, Fetch and Pull retry an error, Strict and
// Route terminate it, Logged only logs it (the ack wait redelivers). What
// each does with the error crosses packages in its handler fact.
package bus

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Handler handles one message.
type Handler func(ctx context.Context, msg jetstream.Msg) error

// Subscribe consumes c: Ack on success, a delayed retry on error.
func Subscribe(c jetstream.Consumer, h Handler) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		if err := h(context.Background(), msg); err != nil {
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		_ = msg.Ack()
	})
}

// Strict runs h for one message: Ack on success, Term on error.
func Strict(ctx context.Context, msg jetstream.Msg, h Handler) {
	err := h(ctx, msg)
	if err == nil {
		_ = msg.Ack()
		return
	}
	_ = msg.Term()
}

// Logged runs h for one message: Ack on success; an error is logged and
// the message left to the ack wait.
func Logged(ctx context.Context, msg jetstream.Msg, h Handler) {
	if err := h(ctx, msg); err != nil {
		log.Printf("handle %s: %v", msg.Subject(), err)
		return
	}
	_ = msg.Ack()
}

// Fetch handles a batch: Ack on success, a retry now on error.
func Fetch(ctx context.Context, msgs []jetstream.Msg, h Handler) {
	for _, msg := range msgs {
		if err := h(ctx, msg); err != nil {
			_ = msg.Nak()
		} else {
			_ = msg.Ack()
		}
	}
}

// Route settles by a switch on the handler's error.
func Route(ctx context.Context, msg jetstream.Msg, h Handler) {
	err := h(ctx, msg)
	switch {
	case err == nil:
		_ = msg.Ack()
	default:
		_ = msg.TermWithReason(err.Error())
	}
}

// Pull handles one fetched message: Ack on success, a delayed retry on
// error.
func Pull(ctx context.Context, msg jetstream.Msg, h Handler) {
	if err := h(ctx, msg); err == nil {
		_ = msg.Ack()
	} else {
		_ = msg.NakWithDelay(time.Minute)
	}
}
