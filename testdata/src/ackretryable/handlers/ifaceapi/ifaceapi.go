// Package ifaceapi declares the bus interface alone; package natsbus
// implements it. A service that imports both sees the implementation
// through natsbus's facts.
package ifaceapi

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

// Bus subscribes handlers.
type Bus interface {
	Subscribe(ctx context.Context, subject string, h func(context.Context, jetstream.Msg) error) error
}
