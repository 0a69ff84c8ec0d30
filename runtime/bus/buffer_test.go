package bus_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
)

// TestBufferedMessagesKeepWithinTheirAckWait: one worker, a handler that
// takes 400ms, an ack wait of 2s and the default pull buffer. Twelve
// messages wait for the worker, for up to 4.4s: longer than their ack
// wait. The messages the runner holds but has not started are kept alive
// too, so the server delivers each once: its consumer sequence (one per
// delivery, redeliveries included) ends at 12, and the handler runs 12
// times.
func TestBufferedMessagesKeepWithinTheirAckWait(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 2 * time.Second, MaxDeliver: -1})
	const total = 12
	for i := range total {
		e.publish("orders."+strconv.Itoa(i), "x", nil)
	}
	var calls callCounter
	e.start(cons, func(_ context.Context, m bus.Msg) error {
		calls.add("all")
		time.Sleep(400 * time.Millisecond)
		return nil
	}, bus.WithConcurrency(1))
	waitFor(t, 30*time.Second, "every message acked", func() bool {
		info := e.info(cons)
		return info.NumPending == 0 && info.NumAckPending == 0 && info.AckFloor.Stream == total
	})
	info := e.info(cons)
	if info.Delivered.Consumer != total || info.NumRedelivered != 0 {
		t.Fatalf("the server made %d deliveries of %d messages (%d redelivered): buffered messages outlived their ack wait",
			info.Delivered.Consumer, total, info.Delivered.Consumer-total)
	}
	if n := calls.get("all"); n != total {
		t.Fatalf("handler ran %d times for %d messages", n, total)
	}
}

// TestPullingPausesWhileTheBacklogIsFull: with a pull buffer of 6 and one
// slow worker, the runner never holds more than the buffer and the
// message it runs (the server's count of deliveries awaiting an ack), and
// it still takes every message, and runs the handler once for each.
//
// A pause unsubscribes the pull request, which may still be sending: a
// message the server sends to it just after the unsubscribe reaches no
// one, and the server redelivers it at once (its didNotDeliver), one
// delivery later. So the server may count a few deliveries more than
// messages, each of a message that never reached the runner on it: the
// handler's first and only call is on a later delivery. Any other extra
// delivery (one that expired while the message waited, a release) fails.
func TestPullingPausesWhileTheBacklogIsFull(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 5 * time.Second, MaxDeliver: -1})
	const total, buffer = 30, 6
	for i := range total {
		e.publish("orders."+strconv.Itoa(i), "x", nil)
	}
	var (
		mu    sync.Mutex
		calls = map[string][]uint64{} // subject -> the deliveries the handler ran on
	)
	e.start(cons, func(_ context.Context, m bus.Msg) error {
		md, _ := m.Metadata()
		mu.Lock()
		calls[m.Subject()] = append(calls[m.Subject()], md.NumDelivered)
		mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		return nil
	}, bus.WithConcurrency(1), bus.WithPullMaxMessages(buffer))
	most := 0
	waitFor(t, 30*time.Second, "every message acked", func() bool {
		info := e.info(cons)
		most = max(most, info.NumAckPending)
		return info.NumPending == 0 && info.NumAckPending == 0 && info.AckFloor.Stream == total
	})
	if most > buffer+1 {
		t.Fatalf("the runner held %d messages at once, over its pull buffer of %d and the one it ran", most, buffer)
	}
	mu.Lock()
	defer mu.Unlock()
	unseen := uint64(0) // deliveries that never reached the runner
	for i := range total {
		subject := "orders." + strconv.Itoa(i)
		got := calls[subject]
		if len(got) != 1 {
			t.Fatalf("%s: handler ran on deliveries %v, want one call", subject, got)
		}
		unseen += got[0] - 1
	}
	if info := e.info(cons); info.Delivered.Consumer != total+unseen {
		t.Fatalf("the server made %d deliveries of %d messages, %d of them unseen by the runner: %d redelivered after reaching it",
			info.Delivered.Consumer, total, unseen, info.Delivered.Consumer-total-unseen)
	}
}
