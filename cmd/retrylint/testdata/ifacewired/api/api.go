// Package api declares the bus the services depend on, and nothing else.
package api

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

type Bus interface {
	Subscribe(ctx context.Context, durable string, h func(context.Context, jetstream.Msg) error) error
}

// Hooks is another interface whose implementation acks nothing.
type Hooks interface {
	OnStop(f func(context.Context, jetstream.Msg) error)
}
