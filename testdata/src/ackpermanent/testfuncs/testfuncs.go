// Package testfuncs proves that test functions are out of scope: the
// same defect is quiet in Test, Benchmark and Fuzz functions and
// TestMain, and reported in a test file's helpers.
package testfuncs

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Worker struct {
	js   jetstream.JetStream
	work func(context.Context, []byte) error
}

func (w *Worker) park(ctx context.Context, msg jetstream.Msg) error {
	_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}
