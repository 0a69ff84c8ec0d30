package handlers

// Handlers a worker pool keeps in a field and calls with the payload:
// returning true (or nil) on the payload's decode failure acks the
// undecodable payload away. Decoding something else than the payload
// (the metadata's stream name) is not a decode of the message.

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/pool"
)

func handleOrderBytes(ctx context.Context, data []byte, meta *jetstream.MsgMetadata) bool {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		slog.Warn("bad order", "err", err, "stream", meta.Stream)
		return true // want `returning true on the decode failure of json.Unmarshal makes pool.New Ack the message`
	}
	return true
}

func handleOrderBytesErr(ctx context.Context, data []byte) error {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return nil // want `returning nil on the decode failure of json.Unmarshal makes pool.NewErr Ack the message`
	}
	return nil
}

// Not reported: false makes the pool retry later.
func handleOrderBytesRetry(ctx context.Context, data []byte, meta *jetstream.MsgMetadata) bool {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return false
	}
	return true
}

// Not reported: the stream name is not the payload.
func handleOrderStream(ctx context.Context, data []byte, meta *jetstream.MsgMetadata) bool {
	var tags []string
	if err := json.Unmarshal([]byte(meta.Stream), &tags); err != nil {
		return true
	}
	return len(data) > 0
}

func acceptOrder(ctx context.Context, data []byte) bool {
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return true // want `returning true on the decode failure of json.Unmarshal makes pool.Drain Ack the message`
	}
	return o.ID != ""
}

func DrainOrders(ctx context.Context, batch jetstream.MessageBatch) {
	pool.Drain(ctx, batch, acceptOrder)
}

func RegisterPools(cons jetstream.Consumer) {
	_ = pool.New(cons, 2, handleOrderBytes)
	_ = pool.NewErr(cons, handleOrderBytesErr)
	_ = pool.New(cons, 2, handleOrderBytesRetry)
	_ = pool.New(cons, 2, handleOrderStream)
}
