package bus_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
)

// TestDrainAndStop: Drain lets the running handler finish (its message is
// acked) and then Run returns; Stop cancels the running handler at once
// (its message is released for redelivery) and Run returns. The server
// tells which: acked, or pending again.
func TestDrainAndStop(t *testing.T) {
	for _, stop := range []bool{false, true} {
		t.Run(map[bool]string{false: "Drain", true: "Stop"}[stop], func(t *testing.T) {
			e := newEnv(t)
			cons := e.consumer(bus.ConsumerConfig("worker"))
			e.publish("orders.created", "{}", nil)
			started, release := make(chan struct{}), make(chan struct{})
			rec := newRecorder()
			r, err := bus.NewRunner(t.Context(), cons, e.dlq, func(ctx context.Context, _ bus.Msg) error {
				close(started)
				select {
				case <-release:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}, bus.WithLogger(e.log), bus.WithObserver(rec.observe), bus.WithDrainTimeout(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- r.Run(context.Background()) }()
			<-started
			if stop {
				r.Stop()
			} else {
				r.Drain()
				select {
				case err := <-done:
					t.Fatalf("Run returned (%v) before the running handler finished", err)
				case <-time.After(300 * time.Millisecond):
				}
				close(release)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return")
			}
			ev := rec.wait(t, time.Second, "the event", count(1))[0]
			if !stop && ev.Decision.Action == bus.ActionAck {
				// Acks are fire-and-forget: the server applies this one
				// soon after Run returns.
				waitFor(t, 5*time.Second, "the ack applied", func() bool { return e.info(cons).NumAckPending == 0 })
			}
			info := e.info(cons)
			switch {
			case !stop && (ev.Decision.Action != bus.ActionAck || info.NumAckPending != 0 || info.NumPending != 0):
				t.Errorf("Drain: %v, %d ack pending, %d pending; want acked", ev.Decision.Action, info.NumAckPending, info.NumPending)
			case stop && (ev.Decision.Action != bus.ActionNak || ev.Decision.Class != bus.ClassShutdown):
				t.Errorf("Stop: %v %v; want released at shutdown", ev.Decision.Action, ev.Decision.Class)
			case stop:
				// The server's word: the released message is delivered again.
				m, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
				if err != nil {
					t.Fatalf("Stop: the released message did not come back: %v", err)
				}
				if md, err := m.Metadata(); err != nil || md.NumDelivered != 2 {
					t.Errorf("Stop: redelivery %+v, %v; want the second delivery", md, err)
				}
			}
		})
	}
}
