// Package binding is a stub of github.com/cloudevents/sdk-go/v2/binding
// with the signatures the tests use.
package binding

import (
	"context"

	"github.com/cloudevents/sdk-go/v2/event"
)

type Message interface {
	Finish(error) error
}

type Transformer interface{}

func ToEvent(ctx context.Context, message Message, transformers ...Transformer) (*event.Event, error) {
	return nil, nil
}
