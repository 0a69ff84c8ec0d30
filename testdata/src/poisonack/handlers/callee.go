package handlers

// Through the callee (CONTRACT.md version 3): the handler returns
// decodeAndApply's result as it is, so its nil on a decode failure is the
// bus's Ack.

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/bus"
)

func handleDelegated(ctx context.Context, msg jetstream.Msg) error {
	return decodeAndApply(ctx, msg)
}

func decodeAndApply(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		slog.Warn("bad order", "err", err)
		return nil // want `returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message`
	}
	return nil
}

// Not reported: decodeOnly's nil on a decode failure only lets the
// handler go on to its own return of the error.
func handleChecking(ctx context.Context, msg jetstream.Msg) error {
	if err := decodeOnly(ctx, msg); err != nil {
		return err
	}
	return nil
}

func decodeOnly(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		slog.Warn("bad order", "err", err)
		return nil
	}
	return nil
}

func RegisterDelegated(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, handleDelegated)
	_, _ = bus.Subscribe(c, handleChecking)
}
