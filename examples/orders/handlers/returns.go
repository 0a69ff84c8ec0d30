package handlers

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/examples/orders/bus"
	"github.com/retrylint/retrylint/examples/orders/errs"
)

// ReturnRequested is the payload of orders.returned.
type ReturnRequested struct {
	OrderID string `json:"order_id"`
	Reason  string `json:"reason"`
}

// HandleReturned processes one orders.returned message.
func (h *Orders) HandleReturned(ctx context.Context, msg jetstream.Msg) {
	var r ReturnRequested
	if err := json.Unmarshal(msg.Data(), &r); err != nil {
		slog.Warn("unreadable return request", "err", err)
		// Defect (poisonack): the undecodable request is acked away; no
		// one will ever see it again.
		_ = msg.Ack()
		return
	}
	_ = msg.Ack()
}

// HandleExpired moves an order whose payment window closed to the DLQ.
func (h *Orders) HandleExpired(ctx context.Context, msg jetstream.Msg) {
	if err := bus.DeadLetter(ctx, h.JS, msg, errs.ErrInvalidOrder); err != nil {
		slog.Error("dead letter failed", "err", err)
	}
	// Defect (dlqunchecked): if the DLQ write failed, the Ack drops the
	// order and its evidence; check the write and NakWithDelay on failure.
	_ = msg.Ack()
}

// HandleExpiredRight is HandleExpired as the contract wants it.
func (h *Orders) HandleExpiredRight(ctx context.Context, msg jetstream.Msg) {
	if err := bus.DeadLetter(ctx, h.JS, msg, errs.ErrInvalidOrder); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
	_ = msg.Ack()
}

// HandleShipped processes one orders.shipped message through bus.Run.
func (h *Orders) HandleShipped(ctx context.Context, msg jetstream.Msg) {
	bus.Run(ctx, msg, h.releaseShipped)
}

func (h *Orders) releaseShipped(ctx context.Context, msg jetstream.Msg) error {
	if err := h.Inventory.Release(ctx, string(msg.Data())); err != nil {
		slog.Warn("release failed", "err", err)
		// Defect (ackretryable, in a handler): returning nil makes bus.Run
		// Ack the message; the transient inventory outage is acked away.
		return nil
	}
	return nil
}
