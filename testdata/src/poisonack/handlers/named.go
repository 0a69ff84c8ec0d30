package handlers

// Nil named results on a decode failure (CONTRACT.md version 3): a naked
// return of a result nothing assigned acks the undecodable payload away
// like `return nil`; a naked return of the decode error does not.

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/bus"
)

func handleNakedDecode(ctx context.Context, msg jetstream.Msg) (err error) {
	var o Order
	if derr := json.Unmarshal(msg.Data(), &o); derr != nil {
		slog.Warn("bad order", "err", derr)
		return // want `returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message`
	}
	return
}

// Not reported: the named result holds the decode error.
func handleNakedDecodeErr(ctx context.Context, msg jetstream.Msg) (err error) {
	var o Order
	if err = json.Unmarshal(msg.Data(), &o); err != nil {
		slog.Warn("bad order", "err", err)
		return
	}
	return
}

func RegisterNamed(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, handleNakedDecode)
	_, _ = bus.Subscribe(c, handleNakedDecodeErr)
}
