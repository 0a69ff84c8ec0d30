package testfuncs

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// Test functions drive the broker on purpose: quiet.

// dlqSubject is where the test below dead-letters.
const dlqSubject = "orders.DLQ"

func TestHandle(t *testing.T) {
	var js jetstream.JetStream
	if _, err := js.Publish(context.Background(), dlqSubject, nil); err != nil {
		t.Fatal(err)
	}
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack()
		}
		return msg.Ack()
	}
}

func BenchmarkHandle(b *testing.B) {
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack()
		}
		return msg.Ack()
	}
}

func FuzzHandle(f *testing.F) {
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack()
		}
		return msg.Ack()
	}
}

func TestMain(m *testing.M) {
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack()
		}
		return msg.Ack()
	}
}

// The rest of a test file is code like any other: reported.

func helper(t *testing.T) {
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack() // want `Ack on the decode failure of json.Unmarshal`
		}
		return msg.Ack()
	}
}

func ExampleHandle() {
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack() // want `Ack on the decode failure of json.Unmarshal`
		}
		return msg.Ack()
	}
}

// Testimony is not a test function: go test runs TestXxx only when Xxx
// does not start with a lower-case letter.
func Testimony(t *testing.T) {
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack() // want `Ack on the decode failure of json.Unmarshal`
		}
		return msg.Ack()
	}
}

// A method named like a test is not one either.
type suite struct{}

func (suite) TestHandle(t *testing.T) {
	_ = func(msg jetstream.Msg) error {
		var v map[string]any
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return msg.Ack() // want `Ack on the decode failure of json.Unmarshal`
		}
		return msg.Ack()
	}
}
