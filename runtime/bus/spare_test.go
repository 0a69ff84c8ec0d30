package bus_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// TestSpareDeliveryKeepsTheHandlersError: with MaxDeliver 3 (a runner cap
// of 2) the DLQ is down when the handler fails on delivery 2. The server's
// spare delivery 3 dead-letters the message without running the handler,
// and its DLQ entry, read from the server, keeps the handler's error text
// and the verdict's class (last_delivery), not only "delivered 3 times":
// on the same runner, and on another instance that reads the ledger.
func TestSpareDeliveryKeepsTheHandlersError(t *testing.T) {
	for _, another := range []bool{false, true} {
		name := map[bool]string{false: "same runner", true: "another instance with the ledger"}[another]
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			adv := e.captureAdvisories()
			cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second, MaxDeliver: 3})
			l := e.newLedger()
			var calls callCounter
			h := func(_ context.Context, m bus.Msg) error {
				if calls.add(m.Subject()) == 2 {
					if err := e.js.DeleteStream(t.Context(), e.dlq.Name()); err != nil { // the DLQ goes down
						t.Error(err)
					}
				}
				return retry.RetryAfter(errors.New("inventory service unavailable"), 100*time.Millisecond)
			}
			opts := []bus.Option{bus.WithLogger(e.log), bus.WithLedger(l), bus.WithDeadLetterTimeout(time.Second),
				bus.WithDeadLetterRetryDelay(700 * time.Millisecond)}
			failed := make(chan struct{})
			first, err := bus.NewRunner(t.Context(), cons, e.dlq, h, append(opts, bus.WithObserver(func(ev bus.Event) {
				if ev.DeadLetterErr != nil {
					close(failed)
				}
			}))...)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- first.Run(context.Background()) }()
			seq := e.publish("orders.1", "x", nil)
			select {
			case <-failed:
			case <-time.After(10 * time.Second):
				t.Fatal("no failed dead letter")
			}
			if another {
				first.Drain()
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				e.start(cons, h, opts...)
			} else {
				t.Cleanup(func() { first.Stop(); <-done })
			}
			if _, err := dlq.New(t.Context(), e.js); err != nil { // the DLQ is back
				t.Fatal(err)
			}
			waitFor(t, 10*time.Second, "the dead letter", func() bool { return len(e.entries()) == 1 })
			en := e.entries()[0]
			if en.StreamSeq != seq || en.Deliveries != 3 || en.Class != string(bus.ClassLastDelivery) ||
				!strings.Contains(en.Error, "inventory service unavailable") || !slices.Contains(en.ErrorTypes, "*retry.DelayedError") {
				t.Fatalf("evidence of the spare delivery: class %q, error %q, types %q, %d deliveries", en.Class, en.Error, en.ErrorTypes, en.Deliveries)
			}
			if n := calls.get("orders.1"); n != 2 {
				t.Fatalf("handler ran %d times, want 2 (the spare delivery does not run it)", n)
			}
			waitFor(t, 5*time.Second, "the Term", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
		})
	}
}
