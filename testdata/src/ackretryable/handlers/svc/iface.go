package svc

// Through an interface (CONTRACT.md version 3): handlers registered with
// s.bus.Subscribe, bus an interface whose implementation Acks on nil, in
// this package's sight (ifacebus declares both; natsbus implements
// ifaceapi.Bus and is imported here to wire it). A callback given to an
// interface whose implementation acks nothing is not a handler.

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/ifaceapi"
	"ackretryable/handlers/ifacebus"
	"ackretryable/handlers/natsbus"
)

type Orders struct {
	bus    ifacebus.Subscriber
	notify ifacebus.Notifier
	api    ifaceapi.Bus
	svc    *Service
}

func NewOrders(c jetstream.Consumer, sub ifacebus.Subscriber, n ifacebus.Notifier) *Orders {
	return &Orders{bus: sub, notify: n, api: natsbus.New(c), svc: &Service{}}
}

func (o *Orders) onCreated(ctx context.Context, msg jetstream.Msg) error {
	if err := o.svc.reserve(ctx, msg.Data()); err != nil {
		log.Printf("reserve: %v", err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes o.bus.Subscribe Ack the message`
	}
	return nil
}

func (o *Orders) onShipped(ctx context.Context, msg jetstream.Msg) error {
	if err := o.svc.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes o.bus.Subscribe Ack the message`
	}
	return nil
}

func (o *Orders) onPaid(ctx context.Context, msg jetstream.Msg) error {
	if err := o.svc.reserve(ctx, msg.Data()); err != nil {
		return nil // want `retryable error err from reserve is dropped: returning nil makes o.api.Subscribe Ack the message`
	}
	return nil
}

// Not reported: the reconnect hook's nil result acknowledges nothing.
func (o *Orders) rewarm(ctx context.Context) error {
	if err := o.svc.reserve(ctx, nil); err != nil {
		log.Printf("rewarm: %v", err)
		return nil
	}
	return nil
}

// Not reported: the handler returns the error.
func (o *Orders) onCancelled(ctx context.Context, msg jetstream.Msg) error {
	return o.svc.reserve(ctx, msg.Data())
}

func (o *Orders) Start(ctx context.Context) error {
	routes := []struct {
		durable string
		h       ifacebus.Handler
	}{
		{"orders-created", o.onCreated},
		{"orders-cancelled", o.onCancelled},
	}
	for _, r := range routes {
		if _, err := o.bus.Subscribe(ctx, r.durable, r.h); err != nil {
			return err
		}
	}
	if _, err := o.bus.Subscribe(ctx, "orders-shipped", o.onShipped); err != nil {
		return err
	}
	o.notify.OnReconnect(o.rewarm)
	return o.api.Subscribe(ctx, "orders.paid", o.onPaid)
}
