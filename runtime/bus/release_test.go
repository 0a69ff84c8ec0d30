package bus_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
)

// TestDrainsDoNotSpendTheCap: 20 messages on a consumer with MaxDeliver 5
// (the runner's cap is 4), one worker or four, and four clean drains in a
// row, each while the handler holds the first message of each worker and
// the rest wait in the pull buffer. Every release must cost the one delivery the message already had
// (it used to be Naked back into the still-open pull request, up to about
// 30 times), and a message on its last delivery is handled within the
// drain time rather than dead-lettered: a fifth run acks all 20, the DLQ is
// empty and the server terminated nothing. Everything is read from the
// server: the consumer's delivered sequence (one per delivery), its ack
// floor, the DLQ stream and the MSG_TERMINATED advisories.
func TestDrainsDoNotSpendTheCap(t *testing.T) {
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { drainsDoNotSpendTheCap(t, workers) })
	}
}

func drainsDoNotSpendTheCap(t *testing.T, workers int) {
	const total, drains = 20, 4
	e := newEnv(t)
	adv := e.captureAdvisories()
	cfg := bus.ConsumerConfig("worker")
	cfg.MaxDeliver = 5
	cons := e.consumer(cfg)
	for range total {
		e.publish("orders.1", "{}", nil)
	}
	run := func(round int, hold bool) {
		t.Helper()
		started, release := make(chan struct{}), make(chan struct{})
		var held atomic.Int32
		r, err := bus.NewRunner(t.Context(), cons, e.dlq, func(ctx context.Context, _ bus.Msg) error {
			if hold {
				switch n := held.Add(1); {
				case n == int32(workers):
					close(started)
					fallthrough
				case n < int32(workers):
					<-release
				}
			}
			return nil
		}, bus.WithLogger(e.log), bus.WithConcurrency(workers), bus.WithDrainTimeout(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- r.Run(context.Background()) }()
		if !hold {
			waitFor(t, 10*time.Second, "every message acked", func() bool {
				info := e.info(cons)
				return info.NumPending == 0 && info.NumAckPending == 0
			})
			r.Drain()
		} else {
			<-started
			r.Drain()
			waitFor(t, 10*time.Second, "the shutdown to begin", func() bool { return bus.Stopping(r) })
			close(release)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d: Run: %v", round, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("round %d: Run did not return", round)
		}
	}
	delivered := uint64(0)
	for round := 1; round <= drains; round++ {
		before := e.info(cons)
		run(round, true)
		after := e.info(cons)
		left := uint64(total) - before.AckFloor.Stream
		if d := after.Delivered.Consumer - before.Delivered.Consumer; d > left {
			t.Errorf("drain %d: %d deliveries of the %d messages left: released messages came straight back", round, d, left)
		}
		delivered = after.Delivered.Consumer
	}
	run(drains+1, false)
	info := e.info(cons)
	if info.AckFloor.Stream != total || info.NumPending != 0 || info.NumAckPending != 0 {
		t.Errorf("after the last run: ack floor %d, %d pending, %d ack pending; want all %d acked",
			info.AckFloor.Stream, info.NumPending, info.NumAckPending, total)
	}
	if got := e.entries(); len(got) != 0 {
		t.Errorf("%d DLQ entries (first: %+v) for messages whose handler never failed", len(got), got[0])
	}
	if term := adv.terminated(); len(term) != 0 {
		t.Errorf("the server terminated %d messages whose handler never failed", len(term))
	}
	t.Logf("%d deliveries over %d drains", delivered, drains)
}
