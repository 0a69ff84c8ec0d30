package otelbus_test

import (
	"context"
	"log"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/bus/otelbus"
	"github.com/retrylint/retrylint/runtime/dlq"
)

// A runner with OpenTelemetry, on the global providers.
func ExampleNew() {
	ctx := context.Background()
	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	store, err := dlq.New(ctx, js)
	if err != nil {
		log.Fatal(err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, "ORDERS", bus.ConsumerConfig("billing", "orders.>"))
	if err != nil {
		log.Fatal(err)
	}
	h := func(ctx context.Context, m bus.Msg) error { return nil }

	inst, err := otelbus.New(otel.GetTracerProvider(), otel.GetMeterProvider(), otel.GetTextMapPropagator())
	if err != nil {
		log.Fatal(err)
	}
	r, err := bus.NewRunner(ctx, cons, inst.DeadLetterWriter(store), bus.Chain(h, inst.Middleware(), bus.Recover()),
		bus.WithObserver(inst.Observe), bus.WithHeartbeatObserver(inst.ObserveHeartbeat))
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Run(ctx); err != nil {
		log.Fatal(err)
	}
}
