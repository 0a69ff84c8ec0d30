package testfuncs

import (
	"context"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// A redelivery test settles twice on purpose: quiet.

func TestHandle(t *testing.T) {
	w := &Worker{}
	var msg jetstream.Msg
	_ = msg.Ack()
	if err := w.work(context.Background(), nil); err != nil {
		_ = msg.Nak()
	}
}

func BenchmarkHandle(b *testing.B) {
	var msg jetstream.Msg
	_ = msg.Ack()
	_ = msg.Term()
}

func FuzzHandle(f *testing.F) {
	var msg jetstream.Msg
	_ = msg.Ack()
	_ = msg.Term()
}

func TestMain(m *testing.M) {
	var msg jetstream.Msg
	_ = msg.Ack()
	_ = msg.Term()
}

// The rest of a test file is code like any other: reported.

func handleForTest(ctx context.Context, w *Worker, msg jetstream.Msg) {
	_ = msg.Ack()
	if err := w.work(ctx, msg.Data()); err != nil {
		_ = msg.Nak() // want `Nak after Ack is ignored`
	}
}
