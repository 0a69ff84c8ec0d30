// Package runtimeuser registers a handler with this project's runtime
// runner: the runner Acks when the handler returns nil, so returning nil
// in a retryable error's branch acks the transient failure away.
package runtimeuser

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/retry"
)

func reserve(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		return retry.RetryAfter(errors.New("inventory busy"), 2*time.Second)
	}
	return nil
}

func handle(ctx context.Context, msg bus.Msg) error {
	if err := reserve(ctx, msg.Data()); err != nil {
		log.Printf("reserve: %v", err)
		return nil
	}
	return nil
}

func Run(ctx context.Context, cons jetstream.Consumer, dead bus.DeadLetterWriter) error {
	r, err := bus.NewRunner(ctx, cons, dead, handle)
	if err != nil {
		return err
	}
	return r.Run(ctx)
}
