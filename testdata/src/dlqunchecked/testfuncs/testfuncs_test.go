package testfuncs

import (
	"context"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// Test functions drive the broker on purpose: quiet.

func TestHandle(t *testing.T) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack()
	}
}

func BenchmarkHandle(b *testing.B) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack()
	}
}

func FuzzHandle(f *testing.F) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack()
	}
}

func TestMain(m *testing.M) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack()
	}
}

// The rest of a test file is code like any other: reported.

func helper(t *testing.T) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack() // want `Ack after the DLQ write w.js.Publish whose error is not checked`
	}
}

func ExampleHandle() {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack() // want `Ack after the DLQ write w.js.Publish whose error is not checked`
	}
}

// Testimony is not a test function: go test runs TestXxx only when Xxx
// does not start with a lower-case letter.
func Testimony(t *testing.T) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack() // want `Ack after the DLQ write w.js.Publish whose error is not checked`
	}
}

// A method named like a test is not one either.
type suite struct{}

func (suite) TestHandle(t *testing.T) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		_, _ = w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return msg.Ack() // want `Ack after the DLQ write w.js.Publish whose error is not checked`
	}
}
