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
		msg.Term()
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}

func BenchmarkHandle(b *testing.B) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		msg.Term()
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}

func FuzzHandle(f *testing.F) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		msg.Term()
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}

func TestMain(m *testing.M) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		msg.Term()
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}

// The rest of a test file is code like any other: reported.

func helper(t *testing.T) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		msg.Term() // want `Term before the DLQ write w.js.Publish`
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}

func ExampleHandle() {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		msg.Term() // want `Term before the DLQ write w.js.Publish`
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}

// Testimony is not a test function: go test runs TestXxx only when Xxx
// does not start with a lower-case letter.
func Testimony(t *testing.T) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		msg.Term() // want `Term before the DLQ write w.js.Publish`
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}

// A method named like a test is not one either.
type suite struct{}

func (suite) TestHandle(t *testing.T) {
	w := &Worker{}
	_ = func(ctx context.Context, msg jetstream.Msg) error {
		msg.Term() // want `Term before the DLQ write w.js.Publish`
		_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
}
