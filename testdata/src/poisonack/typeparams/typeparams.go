// Package typeparams proves poisonack follows generic code.
package typeparams

import (
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type Envelope[T any] struct {
	Body T `json:"body"`
}

func Handle[T any](msg jetstream.Msg, apply func(T) error) error {
	var env Envelope[T]
	if err := json.Unmarshal(msg.Data(), &env); err != nil {
		return msg.Nak() // want `bare Nak on the decode failure of json.Unmarshal`
	}
	return apply(env.Body)
}

func HandleRight[T any](msg jetstream.Msg, apply func(T) error) error {
	var env Envelope[T]
	if err := json.Unmarshal(msg.Data(), &env); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return apply(env.Body)
}
