// Package broken proves poisonack does not panic on code with type errors
// and reports nothing whose types are broken; a well-typed defect in the
// same package is still reported.
package broken

import (
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

func _(msg UnknownMsg) error {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		return msg.Ack()
	}
	return nil
}

func _(msg jetstream.Msg) error {
	if err := undefinedDecode(msg.Data()); err != nil {
		return msg.Ack()
	}
	return nil
}

func _(msg jetstream.Msg) error {
	var v map[string]any
	if err := json.Unmarshal(msg.Data(), &v); err != nil {
		return msg.Ack() // want `Ack on the decode failure of json.Unmarshal`
	}
	return nil
}
