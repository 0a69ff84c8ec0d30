// Package tablebus decides a message's settlement through a table, which
// the inference cannot follow: its Run is marked //retrylint:handler.
package tablebus

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

type action int

const (
	ack action = iota
	retry
)

var settle = map[action]func(jetstream.Msg) error{
	ack:   func(m jetstream.Msg) error { return m.Ack() },
	retry: func(m jetstream.Msg) error { return m.Nak() },
}

// Run calls h and settles msg by the table.
//
//retrylint:handler h
func Run(ctx context.Context, msg jetstream.Msg, h func(context.Context, jetstream.Msg) error) { // want Run:"acks when handler param 2 returns nil"
	a := ack
	if h(ctx, msg) != nil {
		a = retry
	}
	_ = settle[a](msg)
}
