package bus_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
)

// ordersMsgs returns how many messages the ORDERS stream holds.
func (e *env) ordersMsgs() uint64 {
	e.t.Helper()
	info, err := e.stream.Info(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	return info.State.Msgs
}

// TestReplayToAConsumerThatIsGone: consumer billing dead-letters a message,
// then the service moves to the durable billing-v2 and billing is deleted
// (a versioned or blue/green durable). A replay to billing must be refused
// before anything is published: the DLQ keeps the entry and ORDERS gets no
// copy, as the server tells. ReplayTo billing-v2 with delete runs
// billing-v2's handler on the copy and empties the DLQ. A copy meant for
// billing that is published anyway (an older tool, or billing deleted
// after the replay) is handled by billing-v2, never acked away.
func TestReplayToAConsumerThatIsGone(t *testing.T) {
	e := newEnv(t)
	billing := e.consumer(jetstream.ConsumerConfig{Durable: "billing", AckWait: 30 * time.Second})
	runner, brec := e.start(billing, func(context.Context, bus.Msg) error { return errDeclined }, bus.WithName("billing"))
	e.publish("orders.1", "x", nats.Header{"Trace-Id": {"t-1"}})
	brec.wait(t, 10*time.Second, "billing's dead letter", count(1))
	if n := len(e.entries()); n != 1 {
		t.Fatalf("%d DLQ entries, want 1", n)
	}
	runner.Drain()
	if err := e.stream.DeleteConsumer(t.Context(), "billing"); err != nil {
		t.Fatal(err)
	}

	v2 := e.consumer(jetstream.ConsumerConfig{Durable: "billing-v2", AckWait: 30 * time.Second, DeliverPolicy: jetstream.DeliverNewPolicy})
	var handled atomic.Int32
	e.start(v2, func(context.Context, bus.Msg) error {
		handled.Add(1)
		return nil
	}, bus.WithName("billing-v2"))
	before := e.ordersMsgs()

	done, err := e.dlq.Replay(t.Context(), dlq.ReplayDelete())
	if !errors.Is(err, dlq.ErrNoConsumer) || len(done) != 0 {
		t.Fatalf("Replay to the deleted consumer = %d replayed, %v; want none and ErrNoConsumer", len(done), err)
	}
	if n := len(e.entries()); n != 1 {
		t.Fatalf("the refused replay left %d DLQ entries, want the 1 it had", n)
	}
	if got := e.ordersMsgs(); got != before {
		t.Fatalf("the refused replay published %d copies to ORDERS", got-before)
	}

	done, err = e.dlq.Replay(t.Context(), dlq.ReplayTo("billing-v2"), dlq.ReplayDelete())
	if err != nil || len(done) != 1 {
		t.Fatalf("ReplayTo(billing-v2) = %d replayed, %v", len(done), err)
	}
	waitFor(t, 10*time.Second, "billing-v2 acking the copy", func() bool {
		info := e.info(v2)
		return handled.Load() == 1 && info.NumPending == 0 && info.NumAckPending == 0
	})
	if n := len(e.entries()); n != 0 {
		t.Fatalf("%d DLQ entries after ReplayTo with delete, want 0", n)
	}

	// A copy meant for the deleted consumer, published anyway.
	e.publish("orders.1", "x", nats.Header{dlq.HeaderReplayFor: {"billing"}})
	waitFor(t, 10*time.Second, "billing-v2 settling the stray copy", func() bool {
		info := e.info(v2)
		return info.NumPending == 0 && info.NumAckPending == 0
	})
	if n := handled.Load(); n != 2 {
		t.Fatalf("billing-v2's handler ran %d times, want 2: a copy meant for a deleted consumer was acked away", n)
	}
}
