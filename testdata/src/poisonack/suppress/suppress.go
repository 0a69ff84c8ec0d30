// Package suppress proves //retrylint:ignore and //nolint:retrylint
// silence poisonack, and that other comments do not.
package suppress

import (
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

func _(msg jetstream.Msg) error {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		return msg.Ack() //retrylint:ignore the producer is ours and validated upstream
	}
	return msg.Ack()
}

func _(msg jetstream.Msg) error {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		//nolint:retrylint // the topic is best effort telemetry
		return msg.Ack()
	}
	return msg.Ack()
}

// An ordinary comment does not exempt.
func _(msg jetstream.Msg) error {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		// Poison is rare here.
		return msg.Ack() // want `Ack on the decode failure of json.Unmarshal`
	}
	return msg.Ack()
}
