package testfuncs

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// Test functions drive the broker on purpose: quiet.

func TestHandle(t *testing.T) {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak()
		}
	}
}

func BenchmarkHandle(b *testing.B) {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak()
		}
	}
}

func FuzzHandle(f *testing.F) {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak()
		}
	}
}

func TestMain(m *testing.M) {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak()
		}
	}
}

// The rest of a test file is code like any other: reported.

func helper(t *testing.T) {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak() // want `bare Nak redelivers retryable error err from produce`
		}
	}
}

func ExampleHandle() {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak() // want `bare Nak redelivers retryable error err from produce`
		}
	}
}

// Testimony is not a test function: go test runs TestXxx only when Xxx
// does not start with a lower-case letter.
func Testimony(t *testing.T) {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak() // want `bare Nak redelivers retryable error err from produce`
		}
	}
}

// A method named like a test is not one either.
type suite struct{}

func (suite) TestHandle(t *testing.T) {
	_ = func(msg jetstream.Msg) {
		if err := produce(); err != nil {
			msg.Nak() // want `bare Nak redelivers retryable error err from produce`
		}
	}
}
