package handlers

// Typed handlers registered through a generic Register that hands the
// router's Handle a decoding adapter, on a router whose dispatch gets the
// handler through a lookup method that wraps it in middleware: returning
// nil after a dead letter whose error is dropped loses the event and its
// evidence all the same.

import (
	"context"

	"ackretryable/handlers/mwrouter"
)

type Cancelled struct {
	OrderID string `json:"order_id"`
}

func (p *Projector) onCancelled(ctx context.Context, ev Cancelled) error {
	if ev.OrderID == "" {
		_ = p.deadLetterShipped(ctx, Shipped(ev))
		return nil // want `returning nil \(mwrouter.Register then Acks the message\) after the DLQ write p.deadLetterShipped whose error is not checked`
	}
	return nil
}

// Not reported: the write's failure goes back to the router, which Naks.
func (p *Projector) onCancelledChecked(ctx context.Context, ev Cancelled) error {
	if ev.OrderID == "" {
		return p.deadLetterShipped(ctx, Shipped(ev))
	}
	return nil
}

// Not reported: an observer's nil result acknowledges nothing.
func (p *Projector) auditCancelled(ctx context.Context, ev Cancelled) error {
	if ev.OrderID == "" {
		_ = p.deadLetterShipped(ctx, Shipped(ev))
		return nil
	}
	return nil
}

func (p *Projector) MiddlewareRoutes() *mwrouter.Router {
	r := mwrouter.New()
	mwrouter.Register(r, "orders.cancelled", p.onCancelled)
	mwrouter.Register(r, "orders.cancelled.v2", p.onCancelledChecked)
	mwrouter.Observe(r, "orders.cancelled", p.auditCancelled)
	return r
}
