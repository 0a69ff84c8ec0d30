package handlers

// A bool handler (CONTRACT.md version 3): boolbus.Consume Acks on true, so
// returning true on a decode failure acks the undecodable payload away;
// returning false retries it later.

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/boolbus"
)

func processOrder(ctx context.Context, msg jetstream.Msg) bool {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		slog.Warn("bad order", "err", err)
		return true // want `returning true on the decode failure of json.Unmarshal makes boolbus.Consume Ack the message`
	}
	return true
}

// Not reported: false makes the bus retry later.
func processOrderRetry(ctx context.Context, msg jetstream.Msg) bool {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return false
	}
	return true
}

func RegisterBool(c jetstream.Consumer) {
	_, _ = boolbus.Consume(c, processOrder)
	_, _ = boolbus.Consume(c, processOrderRetry)
}
