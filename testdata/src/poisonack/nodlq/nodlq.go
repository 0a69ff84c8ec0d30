// Package nodlq writes no dead-letter queue anywhere: it has chosen to
// drop poison, so a Term on decode failure is its design, not a defect.
package nodlq

import (
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

type Thumb struct {
	Path string `json:"path"`
}

func _(msg jetstream.Msg) error {
	var t Thumb
	if err := json.Unmarshal(msg.Data(), &t); err != nil {
		return msg.Term()
	}
	return msg.Ack()
}
