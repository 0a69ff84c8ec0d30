// Package handlers consumes order events. Each handler has one defect of
// the retry contract, the kind retrylint exists to find.
package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/examples/orders/bus"
	"github.com/retrylint/retrylint/examples/orders/errs"
	"github.com/retrylint/retrylint/examples/orders/inventory"
)

// OrderPlaced is the event payload.
type OrderPlaced struct {
	ID  string `json:"id"`
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

// Orders handles orders.placed.
type Orders struct {
	JS        jetstream.JetStream
	Inventory *inventory.Client
}

// reserve calls the inventory service for an order.
func (h *Orders) reserve(ctx context.Context, o OrderPlaced) error {
	if err := h.Inventory.Reserve(ctx, o.SKU, o.Qty); err != nil {
		// Defect (retryflatten): %v turns the inventory's retry delay into text.
		return fmt.Errorf("reserve order %s: %v", o.ID, err)
	}
	return nil
}

// release undoes a reservation.
func (h *Orders) release(ctx context.Context, o OrderPlaced) error {
	err := h.Inventory.Release(ctx, o.SKU)
	if err != nil {
		// Defect (retryflatten): a helper in package bus flattens the error.
		return bus.Describe("release "+o.ID, err)
	}
	return nil
}

// audit records the order for compliance.
func (h *Orders) audit(ctx context.Context, o OrderPlaced) error {
	if err := h.Inventory.Reserve(ctx, o.SKU, 0); err != nil {
		// Defect (retryflatten): HandlerError has no Unwrap method.
		return &errs.HandlerError{Handler: "audit", Err: err}
	}
	return nil
}

// HandlePlaced processes one orders.placed message.
func (h *Orders) HandlePlaced(ctx context.Context, msg jetstream.Msg) {
	var o OrderPlaced
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		// Defect (termbeforedlq): Term runs before the DLQ write; a crash in
		// between loses the evidence.
		_ = msg.Term()
		if err := bus.DeadLetter(ctx, h.JS, msg, err); err != nil {
			slog.Error("dead letter failed", "err", err)
		}
		return
	}
	if err := h.reserve(ctx, o); err != nil {
		if errors.Is(err, errs.ErrInvalidOrder) {
			if err := bus.DeadLetter(ctx, h.JS, msg, err); err != nil {
				_ = msg.NakWithDelay(5 * time.Second)
				return
			}
			_ = msg.Term()
			return
		}
		_ = msg.NakWithDelay(time.Second)
		return
	}
	_ = msg.Ack()
}

// HandleCancelled processes one orders.cancelled message.
func (h *Orders) HandleCancelled(ctx context.Context, msg jetstream.Msg) {
	var o OrderPlaced
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		// Defect (termbeforedlq, via a may-Term helper): Reject terminates,
		// only then is the dead letter written.
		bus.Reject(msg, "undecodable")
		_ = bus.DeadLetter(ctx, h.JS, msg, err)
		return
	}
	if err := h.Inventory.Release(ctx, o.SKU); err != nil {
		if d, ok := errs.RetryDelay(err); ok {
			slog.Info("inventory busy", "retry_in", d)
			// Defect (barenak): the delay is known and dropped; every
			// consumer hammers the busy service at once.
			_ = msg.Nak()
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

// HandleRestock processes one inventory.restock message.
func (h *Orders) HandleRestock(ctx context.Context, msg jetstream.Msg) {
	var o OrderPlaced
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		if err := bus.DeadLetter(ctx, h.JS, msg, err); err != nil {
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		_ = msg.Term()
		return
	}
	if err := h.Inventory.Reserve(ctx, o.SKU, o.Qty); err != nil {
		slog.Warn("restock reservation failed", "err", err)
		// Defect (ackretryable): a transient inventory outage is acked away;
		// the restock is never retried.
		_ = msg.Ack()
		return
	}
	if err := h.audit(ctx, o); err != nil {
		slog.Warn("audit failed", "err", err)
	}
	if err := h.release(ctx, o); err != nil {
		slog.Warn("release failed", "err", err)
	}
	_ = msg.Ack()
}
