package bus_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
)

func TestLongHandlerIsKeptAliveWithHeartbeats(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 300 * time.Millisecond})
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		d.mark(m)
		time.Sleep(1500 * time.Millisecond) // five ack waits
		return nil
	})
	e.publish("orders.1", "x", nil)
	evs := rec.wait(t, 10*time.Second, "an ack", count(1))
	time.Sleep(500 * time.Millisecond)
	if got := actions(evs); !slices.Equal(got, []string{"ack"}) || d.calls() != 1 {
		t.Fatalf("actions = %q, %d calls", got, d.calls())
	}
	if info := e.info(cons); info.NumRedelivered != 0 || info.NumAckPending != 0 {
		t.Fatalf("consumer: %d redelivered, %d ack pending", info.NumRedelivered, info.NumAckPending)
	}
}

func TestShutdownReleasesBufferedMessages(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: time.Minute})
	for i := range 5 {
		e.publish(fmt.Sprintf("orders.%d", i), "x", nil)
	}
	started := make(chan struct{}, 5)
	r, err := bus.NewRunner(t.Context(), cons, e.dlq, func(context.Context, bus.Msg) error {
		started <- struct{}{}
		time.Sleep(300 * time.Millisecond)
		return nil
	}, bus.WithLogger(e.log), bus.WithPullMaxMessages(10), bus.WithConcurrency(1)) // one running, four buffered, whatever the scheduling
	if err != nil {
		t.Fatal(err)
	}
	stopAfterStart(t, r, started)
	if err := r.Run(t.Context()); !errors.Is(err, bus.ErrRunning) {
		t.Fatalf("second Run: %v, want ErrRunning", err)
	}
	// The message in the handler was finished and acked; the other four
	// were released, so they are available now, not after the 1 minute ack
	// wait.
	batch, err := cons.Fetch(4, jetstream.FetchMaxWait(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for m := range batch.Messages() {
		n++
		_ = m.Ack()
	}
	if n != 4 || len(started) != 0 {
		t.Fatalf("after shutdown %d messages were available at once, want 4 (%d handlers started)", n, len(started)+1)
	}
}

func TestDrainTimeoutCancelsHandlers(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: time.Minute})
	e.publish("orders.1", "x", nil)
	started := make(chan struct{})
	r, err := bus.NewRunner(t.Context(), cons, e.dlq, func(ctx context.Context, _ bus.Msg) error {
		close(started)
		<-ctx.Done()
		return fmt.Errorf("query: %w", ctx.Err())
	}, bus.WithLogger(e.log), bus.WithDrainTimeout(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stopAfterStart(t, r, started)
	// The interrupted message was released, not dead-lettered.
	if _, err := cons.Next(jetstream.FetchMaxWait(3 * time.Second)); err != nil {
		t.Fatalf("interrupted message not available at once: %v", err)
	}
	if got := e.entries(); len(got) != 0 {
		t.Fatalf("DLQ holds %d entries", len(got))
	}
}

func TestConsumerDeletedStopsRun(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: time.Minute})
	r, err := bus.NewRunner(t.Context(), cons, e.dlq, func(context.Context, bus.Msg) error { return nil }, bus.WithLogger(e.log))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(t.Context()) }()
	time.Sleep(200 * time.Millisecond)
	if err := e.stream.DeleteConsumer(t.Context(), "worker"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, bus.ErrConsumerGone) {
			t.Fatalf("Run: %v, want ErrConsumerGone", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after the consumer was deleted")
	}
}

func TestNewRunnerValidates(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	h := func(context.Context, bus.Msg) error { return nil }
	ackAll := e.consumer(jetstream.ConsumerConfig{Durable: "all", AckPolicy: jetstream.AckAllPolicy})
	if _, err := bus.NewRunner(ctx, ackAll, e.dlq, h); !errors.Is(err, bus.ErrAckPolicy) {
		t.Fatalf("AckAll consumer: %v, want ErrAckPolicy", err)
	}
	cons := e.consumer(bus.ConsumerConfig("worker", "orders.>"))
	for name, args := range map[string]struct {
		c jetstream.Consumer
		d bus.DeadLetterWriter
		h bus.Handler
	}{"nil consumer": {nil, e.dlq, h}, "nil DLQ": {cons, nil, h}, "nil handler": {cons, e.dlq, nil}} {
		if _, err := bus.NewRunner(ctx, args.c, args.d, args.h); !errors.Is(err, bus.ErrInvalidOption) {
			t.Errorf("%s: %v, want ErrInvalidOption", name, err)
		}
	}
	bad := map[string]bus.Option{
		"max deliveries 0": bus.WithMaxDeliveries(0), "poison threshold 0": bus.WithPoisonThreshold(0),
		"poison delay 0": bus.WithPoisonDelay(0), "dlq retry 0": bus.WithDeadLetterRetryDelay(0),
		"dlq timeout 0": bus.WithDeadLetterTimeout(0), "max nak delay 0": bus.WithMaxNakDelay(0),
		"nil backoff": bus.WithBackoff(nil), "bad mode": bus.WithBackOffMode(7), "concurrency 0": bus.WithConcurrency(0),
		"pull 0": bus.WithPullMaxMessages(0), "heartbeat 0": bus.WithHeartbeat(0), "drain 0": bus.WithDrainTimeout(0),
		"nil logger": bus.WithLogger(nil), "nil observer": bus.WithObserver(nil), "nil advisories": bus.WithAdvisories(nil),
	}
	for name, opt := range bad {
		if _, err := bus.NewRunner(ctx, cons, e.dlq, h, opt); !errors.Is(err, bus.ErrInvalidOption) {
			t.Errorf("%s: %v, want ErrInvalidOption", name, err)
		}
	}
	// The recommended consumer: explicit acks, 10 minute ack wait, the
	// runner's cap.
	info := e.info(cons)
	if info.Config.AckWait != bus.DefaultAckWait || info.Config.MaxDeliver != -1 || info.Config.FilterSubject != "orders.>" {
		t.Fatalf("ConsumerConfig: %+v", info.Config)
	}
	r, err := bus.NewRunner(ctx, cons, e.dlq, h)
	if err != nil || r.Config().MaxDeliveries != 100 {
		t.Fatalf("default cap: %v, %v", r.Config().MaxDeliveries, err)
	}
	seven := e.consumer(jetstream.ConsumerConfig{Durable: "seven", MaxDeliver: 7})
	if r, err := bus.NewRunner(ctx, seven, e.dlq, h); err != nil || r.Config().MaxDeliveries != 6 { // the 7th is spare
		t.Fatalf("cap with MaxDeliver 7: %v, %v", r.Config().MaxDeliveries, err)
	}
	one := e.consumer(jetstream.ConsumerConfig{Durable: "one", MaxDeliver: 1})
	if r, err := bus.NewRunner(ctx, one, e.dlq, h); err != nil || r.Config().MaxDeliveries != 1 { // no spare
		t.Fatalf("cap with MaxDeliver 1: %v, %v", r.Config().MaxDeliveries, err)
	}
	if r, err := bus.NewRunner(ctx, seven, e.dlq, h, bus.WithMaxDeliveries(3)); err != nil || r.Config().MaxDeliveries != 3 {
		t.Fatalf("cap 3 with MaxDeliver 7: %v", err)
	}
	multi := bus.ConsumerConfig("m", "a.>", "b.>")
	if !slices.Equal(multi.FilterSubjects, []string{"a.>", "b.>"}) || multi.FilterSubject != "" {
		t.Fatalf("ConsumerConfig with two filters: %+v", multi)
	}
}

// stopAfterStart runs r until a handler has started, then cancels the run
// and waits (10 s at most) for Run to return cleanly.
func stopAfterStart[T any](t *testing.T, r *bus.Runner, started <-chan T) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}
}
