package handlers

import (
	"context"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/examples/orders/bus"
	"github.com/retrylint/retrylint/examples/orders/errs"
)

// HandleHeld releases the stock a lapsed hold kept.
func (h *Orders) HandleHeld(ctx context.Context, msg jetstream.Msg) {
	// Acked early so the broker does not redeliver during a slow release.
	_ = msg.Ack()
	if err := h.Inventory.Release(ctx, string(msg.Data())); err != nil {
		// Defect (settletwice): the message is already acked; the server
		// ignores this NakWithDelay and the failed release is lost.
		_ = msg.NakWithDelay(5 * time.Second)
	}
}

// HandleReturnedStock puts returned stock back on sale.
func (h *Orders) HandleReturnedStock(ctx context.Context, msg jetstream.Msg) {
	if err := h.Inventory.Release(ctx, string(msg.Data())); err != nil {
		if d, ok := errs.RetryDelay(err); ok {
			_ = msg.NakWithDelay(d)
			return
		}
		slog.Warn("restock failed for good", "err", err)
		// Defect (ackpermanent): the permanent failure is acked away with
		// no evidence, while the service dead-letters its other failures.
		_ = msg.Ack()
		return
	}
	_ = msg.Ack()
}

// HandleReturnedStockRight is HandleReturnedStock as the contract wants it.
func (h *Orders) HandleReturnedStockRight(ctx context.Context, msg jetstream.Msg) {
	if err := h.Inventory.Release(ctx, string(msg.Data())); err != nil {
		if d, ok := errs.RetryDelay(err); ok {
			_ = msg.NakWithDelay(d)
			return
		}
		if err := bus.DeadLetter(ctx, h.JS, msg, err); err != nil {
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		_ = msg.Term()
		return
	}
	_ = msg.Ack()
}
