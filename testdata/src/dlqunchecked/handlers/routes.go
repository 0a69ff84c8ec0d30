package handlers

// Typed handlers kept in a router's map (CONTRACT.md version 3): the
// router Acks when they return nil, so returning nil after a dead letter
// whose error is dropped loses the event and its evidence.

import (
	"context"
	"encoding/json"
	"log/slog"

	"ackretryable/handlers/routebus"
)

type Shipped struct {
	OrderID string `json:"order_id"`
}

func (p *Projector) deadLetterShipped(ctx context.Context, ev Shipped) error {
	body, _ := json.Marshal(ev)
	_, err := p.js.Publish(ctx, "shipping.DLQ", body)
	return err
}

func (p *Projector) onShipped(ctx context.Context, ev Shipped) error {
	if ev.OrderID == "" {
		_ = p.deadLetterShipped(ctx, ev)
		return nil // want `returning nil \(routebus.Register then Acks the message\) after the DLQ write p.deadLetterShipped whose error is not checked`
	}
	return nil
}

// Not reported: the write's failure goes back to the router, which Naks.
func (p *Projector) onShippedChecked(ctx context.Context, ev Shipped) error {
	if ev.OrderID == "" {
		if err := p.deadLetterShipped(ctx, ev); err != nil {
			slog.Error("dead letter", "err", err)
			return err
		}
		return nil
	}
	return nil
}

func (p *Projector) Routes() *routebus.Router {
	r := routebus.New()
	routebus.Register(r, "shipping.shipped", p.onShipped)
	routebus.Register(r, "shipping.shipped.v2", p.onShippedChecked)
	return r
}
