package bus_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

var errUnknownCustomer = errors.New("unknown customer")

type order struct {
	ID       int    `json:"id"`
	Customer string `json:"customer"`
}

func charge(context.Context, order) error { return nil }

// A worker: the handler classifies, the runner maps the classification
// onto JetStream, the DLQ keeps the evidence.
func ExampleNewRunner() {
	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	cons, err := js.CreateOrUpdateConsumer(ctx, "ORDERS", bus.ConsumerConfig("billing", "orders.created"))
	if err != nil {
		log.Fatal(err)
	}
	dead, err := dlq.New(ctx, js)
	if err != nil {
		log.Fatal(err)
	}
	handle := bus.JSON(func(ctx context.Context, o order, _ bus.Msg) error {
		if o.Customer == "" {
			return errUnknownCustomer // permanent: DLQ, then Term
		}
		if err := charge(ctx, o); err != nil {
			return fmt.Errorf("charge %d: %w", o.ID, retry.RetryAfter(err, 5*time.Second)) // NakWithDelay(5s)
		}
		return nil // Ack
	})
	r, err := bus.NewRunner(ctx, cons, dead, handle, bus.WithConcurrency(8), bus.WithAdvisories(js))
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Run(ctx); err != nil {
		log.Fatal(err)
	}
}

func ExampleDecide() {
	cfg := bus.DefaultConfig()
	for _, in := range []bus.Input{
		{NumDelivered: 1, Ran: true},
		{NumDelivered: 1, Ran: true, Err: retry.RetryAfter(errors.New("busy"), 2*time.Second)},
		{NumDelivered: 1, Ran: true, Err: errors.New("bad order")},
		{NumDelivered: 1, Ran: true, Err: errors.New("bad order"), DeadLetterErr: errors.New("DLQ down")},
		{NumDelivered: 2, Ran: true, DecodeErr: bus.Undecodable(errors.New("not JSON"))},
	} {
		d := bus.Decide(in, &cfg)
		fmt.Printf("%v %v %q\n", d.Action, d.Delay, d.Class)
	}
	// Output:
	// ack 0s ""
	// nak-delay 2s "transient"
	// dead-letter 0s "permanent"
	// nak-delay 5s "dlq_failed"
	// nak-delay 5s "undecodable"
}
