package testfuncs

import (
	"context"
	"errors"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// A test acks a permanent failure on purpose: quiet.

func TestHandle(t *testing.T) {
	w := &Worker{}
	var msg jetstream.Msg
	if err := w.work(context.Background(), nil); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			_ = msg.Ack()
		}
	}
}

func BenchmarkHandle(b *testing.B) {
	w := &Worker{}
	var msg jetstream.Msg
	if err := w.work(context.Background(), nil); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			_ = msg.Ack()
		}
	}
}

func FuzzHandle(f *testing.F) {
	w := &Worker{}
	var msg jetstream.Msg
	if err := w.work(context.Background(), nil); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			_ = msg.Ack()
		}
	}
}

func TestMain(m *testing.M) {
	w := &Worker{}
	var msg jetstream.Msg
	if err := w.work(context.Background(), nil); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			_ = msg.Ack()
		}
	}
}

// The rest of a test file is code like any other: reported.

func handleForTest(ctx context.Context, w *Worker, msg jetstream.Msg) {
	if err := w.work(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if !errors.As(err, &rd) {
			_ = msg.Ack() // want `Ack after err was classified as a permanent failure`
		}
	}
}
