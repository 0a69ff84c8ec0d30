package bus_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// TestConnectionClosedWhileWorkersBusy closes the runner's connection while
// every worker is held by its handler and the Consume callback is blocked
// handing over the next message. Run must return ErrConsumerGone once the
// handlers finish, and nothing may panic: the work channel used to be
// closed under the blocked sender ("send on closed channel").
func TestConnectionClosedWhileWorkersBusy(t *testing.T) {
	e := newEnv(t)
	e.consumer(jetstream.ConsumerConfig{AckWait: 5 * time.Second})
	for range 12 {
		e.publish("orders.created", "{}", nil)
	}
	nc, js := e.srv.MustConnect(t)
	cons, err := js.Consumer(t.Context(), "ORDERS", "worker")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{}, 12)
	release := make(chan struct{})
	h := func(ctx context.Context, m bus.Msg) error {
		started <- struct{}{}
		<-release
		return nil
	}
	r, err := bus.NewRunner(t.Context(), cons, e.dlq, h, bus.WithLogger(e.log), bus.WithConcurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	for range 4 {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatal("the workers did not start")
		}
	}
	time.Sleep(300 * time.Millisecond) // the callback blocks on the fifth message
	nc.Close()
	time.Sleep(300 * time.Millisecond) // a panic in the callback's goroutine ends the test binary here
	close(release)
	select {
	case err := <-done:
		if !errors.Is(err, bus.ErrConsumerGone) {
			t.Fatalf("Run returned %v, want ErrConsumerGone", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after the connection closed")
	}
	time.Sleep(300 * time.Millisecond) // and here, after Run has returned
}

// TestShutdownOnTheLastDelivery: with MaxDeliver 1 a released message
// never comes back. Canceling Run's context (a drain) handles the
// buffered messages within the drain time instead of releasing them: all
// five are acked, nothing is dead-lettered. Stop, which gives no drain
// time, dead-letters the four no handler started (class shutdown) and
// terminates them. The DLQ and the MSG_TERMINATED advisories tell.
func TestShutdownOnTheLastDelivery(t *testing.T) {
	for _, stop := range []bool{false, true} {
		t.Run(map[bool]string{false: "Drain", true: "Stop"}[stop], func(t *testing.T) {
			e := newEnv(t)
			adv := e.captureAdvisories()
			cons := e.consumer(jetstream.ConsumerConfig{AckWait: time.Minute, MaxDeliver: 1})
			var seqs []uint64
			for i := range 5 {
				seqs = append(seqs, e.publish(fmt.Sprintf("orders.%d", i), "x", nil))
			}
			started := make(chan struct{}, 5)
			var r *bus.Runner
			r, err := bus.NewRunner(t.Context(), cons, e.dlq, func(context.Context, bus.Msg) error {
				started <- struct{}{}
				time.Sleep(100 * time.Millisecond)
				return nil
			}, bus.WithLogger(e.log), bus.WithPullMaxMessages(10), bus.WithConcurrency(1))
			if err != nil {
				t.Fatal(err)
			}
			if stop {
				go func() {
					<-started
					r.Stop()
				}()
				if err := r.Run(t.Context()); err != nil {
					t.Fatal(err)
				}
			} else {
				stopAfterStart(t, r, started)
			}
			got := e.entries()
			if !stop {
				info := e.info(cons)
				if len(got) != 0 || len(adv.terminated()) != 0 || info.AckFloor.Stream != seqs[4] || info.NumAckPending != 0 {
					t.Fatalf("drain: %d DLQ entries, %d terminated, ack floor %d, %d ack pending; want all 5 acked",
						len(got), len(adv.terminated()), info.AckFloor.Stream, info.NumAckPending)
				}
				return
			}
			if len(got) != 4 {
				t.Fatalf("DLQ holds %d entries, want the 4 messages released at shutdown", len(got))
			}
			for _, en := range got {
				if en.Class != string(bus.ClassShutdown) || en.Deliveries != 1 {
					t.Fatalf("entry: %+v", en)
				}
			}
			waitFor(t, 5*time.Second, "4 Terms", func() bool { return len(adv.terminated()) == 4 })
			if term := adv.terminated(); slices.Contains(term, seqs[0]) {
				t.Fatalf("terminated %v: the handled message (%d) was acked, not terminated", term, seqs[0])
			}
		})
	}
}

// TestDeadLetterFailingOnTheCapUsesTheSpareDelivery: with MaxDeliver 3 the
// runner's cap is 2. The DLQ is down when the handler fails on delivery 2;
// the server's third delivery, kept spare, brings the message back, and it
// is dead-lettered without running the handler again.
func TestDeadLetterFailingOnTheCapUsesTheSpareDelivery(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second, MaxDeliver: 3})
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		if d.mark(m) == 2 {
			if err := e.js.DeleteStream(t.Context(), e.dlq.Name()); err != nil { // the DLQ goes down
				t.Error(err)
			}
		}
		return retry.RetryAfter(errors.New("inventory service unavailable"), 100*time.Millisecond)
	}, bus.WithDeadLetterRetryDelay(500*time.Millisecond), bus.WithDeadLetterTimeout(time.Second))
	seq := e.publish("orders.1", "x", nil)
	evs := rec.wait(t, 10*time.Second, "the failed dead letter", count(2))
	if evs[1].DeadLetterErr == nil || evs[1].Decision.Action != bus.ActionNakWithDelay {
		t.Fatalf("events: %s", describe(evs))
	}
	if _, err := dlq.New(t.Context(), e.js); err != nil { // the DLQ is back
		t.Fatal(err)
	}
	evs = rec.wait(t, 10*time.Second, "the dead letter on the spare delivery", count(3))
	if ev := evs[2]; ev.NumDelivered != 3 || ev.Decision.Action != bus.ActionDeadLetter || ev.DeadLetterErr != nil {
		t.Fatalf("events: %s", describe(evs))
	}
	if n := d.calls(); n != 2 {
		t.Fatalf("handler ran %d times, want 2 (the spare delivery does not run it)", n)
	}
	if got := e.entries(); len(got) != 1 || got[0].StreamSeq != seq || got[0].Deliveries != 3 {
		t.Fatalf("DLQ: %+v", got)
	}
	waitFor(t, 5*time.Second, "the Term", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
}

// TestDrainTimeoutOnTheLastDeliveryDeadLetters: a handler interrupted by the
// drain timeout on the server's last delivery is dead-lettered, although
// the handlers' context is canceled by then: the write gets a context of
// its own.
func TestDrainTimeoutOnTheLastDeliveryDeadLetters(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: time.Minute, MaxDeliver: 1})
	seq := e.publish("orders.1", "x", nil)
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
	if got := e.entries(); len(got) != 1 || got[0].StreamSeq != seq || got[0].Class != string(bus.ClassShutdown) {
		t.Fatalf("DLQ: %+v", got)
	}
	waitFor(t, 5*time.Second, "the Term", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
}

// TestStuckHandlerIsTimedOutAndAbandoned: the first call of the handler
// never returns and ignores its context. After the handler timeout and the
// grace period the runner settles the message as a transient failure
// (heartbeats stop, the MaxAckPending slot is freed). With workers, a new
// worker replaces the stuck one: the next message and the redelivery are
// processed, with one worker as with several (handlers never run in the
// Consume callback, which would wait for the call). Run's exit is bounded
// and names the stuck call.
func TestStuckHandlerIsTimedOutAndAbandoned(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			e := newEnv(t)
			cons := e.consumer(jetstream.ConsumerConfig{AckWait: 2 * time.Second})
			block := make(chan struct{})
			defer close(block)
			var calls atomic.Int32
			rec := newRecorder()
			r, err := bus.NewRunner(t.Context(), cons, e.dlq, func(_ context.Context, m bus.Msg) error {
				if m.Subject() == "orders.stuck" && calls.Add(1) == 1 {
					<-block // stuck, deaf to its context
				}
				return nil
			}, bus.WithLogger(e.log), bus.WithObserver(rec.observe), bus.WithHandlerTimeout(300*time.Millisecond),
				bus.WithBackoff(fastPolicy(t)), bus.WithConcurrency(workers), bus.WithDrainTimeout(200*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			stuck := e.publish("orders.stuck", "x", nil)
			next := e.publish("orders.next", "y", nil)
			settled := func(evs []timed) (timed, bool) {
				for _, ev := range evs {
					if ev.StreamSeq == stuck {
						return ev, true
					}
				}
				return timed{}, false
			}
			evs := rec.wait(t, 10*time.Second, "the stuck message settled", func(evs []timed) bool { _, ok := settled(evs); return ok })
			var te *bus.TimeoutError
			if first, _ := settled(evs); !errors.As(first.Err, &te) || !te.Abandoned || first.Decision.Action != bus.ActionNakWithDelay {
				t.Fatalf("events: %s", describe(evs))
			}
			evs = rec.wait(t, 10*time.Second, "the next acked, the stuck one acked on redelivery", count(3))
			acked := map[uint64]uint64{}
			for _, ev := range evs {
				if ev.Decision.Action == bus.ActionAck {
					acked[ev.StreamSeq] = ev.NumDelivered
				}
			}
			if acked[next] != 1 || acked[stuck] != 2 {
				t.Fatalf("events: %s", describe(evs))
			}
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, bus.ErrHandlersStuck) || !strings.Contains(err.Error(), "orders.stuck") {
					t.Fatalf("Run returned %v, want ErrHandlersStuck naming orders.stuck", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return with a stuck handler")
			}
		})
	}
}

// TestHandlerTimeoutCancelsTheContext: a handler that honours its context
// returns when the timeout cancels it (its context has the timeout as its
// deadline, and ends with DeadlineExceeded); the message is retried.
func TestHandlerTimeoutCancelsTheContext(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 5 * time.Second})
	var calls atomic.Int32
	var deadlineIn atomic.Int64
	_, rec := e.start(cons, func(ctx context.Context, _ bus.Msg) error {
		if calls.Add(1) == 1 {
			if dl, ok := ctx.Deadline(); ok {
				deadlineIn.Store(int64(time.Until(dl)))
			}
			<-ctx.Done()
			return fmt.Errorf("query: %w", ctx.Err())
		}
		return nil
	}, bus.WithHandlerTimeout(200*time.Millisecond), bus.WithBackoff(fastPolicy(t)))
	e.publish("orders.slow", "x", nil)
	evs := rec.wait(t, 10*time.Second, "a timeout and a retry", count(2))
	var te *bus.TimeoutError
	if !errors.As(evs[0].Err, &te) || te.Abandoned || !errors.Is(evs[0].Err, context.DeadlineExceeded) ||
		evs[0].Decision.Action != bus.ActionNakWithDelay || evs[1].Decision.Action != bus.ActionAck {
		t.Fatalf("events: %s", describe(evs))
	}
	if d := time.Duration(deadlineIn.Load()); d <= 0 || d > 200*time.Millisecond {
		t.Errorf("the handler's context had its deadline in %v, want within the 200ms timeout", d)
	}
}

// fastPolicy retries after 100ms to 200ms, without jitter.
func fastPolicy(t *testing.T) *retry.Policy {
	t.Helper()
	p, err := retry.NewPolicy(retry.WithBase(100*time.Millisecond), retry.WithCap(200*time.Millisecond), retry.WithJitter(0))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOversizedHeaderIsDeadLetteredReduced: the origin stream accepted a
// message with a 63.6 KiB header; its DLQ copy with the evidence headers
// does not fit. The write must not fail forever (re-running the handler on
// every redelivery): a reduced entry (evidence, no payload, no original
// headers, flagged) is stored instead.
func TestOversizedHeaderIsDeadLetteredReduced(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 5 * time.Second})
	var calls atomic.Int32
	_, rec := e.start(cons, func(context.Context, bus.Msg) error {
		calls.Add(1)
		return errDeclined
	}, bus.WithDeadLetterRetryDelay(100*time.Millisecond))
	seq := e.publish("orders.big", "payload", nats.Header{"Big": {strings.Repeat("x", 63*1024+600)}})
	evs := rec.wait(t, 10*time.Second, "a dead letter", func(evs []timed) bool {
		return len(evs) > 0 && evs[len(evs)-1].Decision.Action == bus.ActionDeadLetter && evs[len(evs)-1].DeadLetterErr == nil || len(evs) >= 5
	})
	if last := evs[len(evs)-1]; last.Decision.Action != bus.ActionDeadLetter || last.DeadLetterErr != nil {
		t.Fatalf("events: %s", describe(evs))
	}
	got := e.entries()
	if len(got) != 1 || got[0].StreamSeq != seq || !got[0].Reduced || got[0].Header.Get("Big") != "" || len(got[0].Data) != 0 ||
		got[0].Class != "permanent" || got[0].Error != errDeclined.Error() {
		t.Fatalf("DLQ: %+v", got)
	}
	waitFor(t, 5*time.Second, "the Term", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
}

// TestDeadLetterOutageDoesNotRerunTheHandler: while the DLQ is down, a
// dead-letter candidate comes back with growing delays, and its handler
// does not run again: the verdict is kept and only the write is retried.
func TestDeadLetterOutageDoesNotRerunTheHandler(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second})
	dead := &flakyDLQ{store: e.dlq}
	dead.down.Store(true)
	var calls atomic.Int32
	rec := newRecorder()
	r, err := bus.NewRunner(t.Context(), cons, dead, func(context.Context, bus.Msg) error {
		calls.Add(1)
		return errDeclined
	}, bus.WithLogger(e.log), bus.WithObserver(rec.observe), bus.WithDeadLetterRetryDelay(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := runUntilCleanup(t, r)
	defer stop()
	seq := e.publish("orders.1", "x", nil)
	evs := rec.wait(t, 10*time.Second, "three failed dead letters", count(3))
	for i, want := range []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond} {
		if ev := evs[i]; ev.DeadLetterErr == nil || ev.Decision.Action != bus.ActionNakWithDelay || ev.Decision.Delay != want {
			t.Fatalf("failure %d: %s, want a delay of %v", i+1, describe(evs), want)
		}
	}
	dead.down.Store(false)
	evs = rec.wait(t, 10*time.Second, "the dead letter", func(evs []timed) bool {
		return evs[len(evs)-1].Decision.Action == bus.ActionDeadLetter && evs[len(evs)-1].DeadLetterErr == nil
	})
	if n := calls.Load(); n != 1 {
		t.Fatalf("the handler ran %d times for one verdict (%d deliveries)", n, evs[len(evs)-1].NumDelivered)
	}
	if got := e.entries(); len(got) != 1 || got[0].Deliveries != evs[len(evs)-1].NumDelivered || got[0].Error != errDeclined.Error() {
		t.Fatalf("DLQ: %+v", got)
	}
	waitFor(t, 5*time.Second, "the Term", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
}

// runUntilCleanup runs r until the returned stop is called.
func runUntilCleanup(t *testing.T, r *bus.Runner) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	return func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return")
		}
	}
}

// TestReplayReachesOnlyTheFailedConsumer: two consumers read ORDERS; the
// billing handler fails a message, shipping's succeeds. Replaying the DLQ
// entry must run billing's handler again and not shipping's, whose runner
// Acks the replayed copy without running its handler.
func TestReplayReachesOnlyTheFailedConsumer(t *testing.T) {
	e := newEnv(t)
	billing := e.consumer(jetstream.ConsumerConfig{Durable: "billing", AckWait: 30 * time.Second})
	shipping := e.consumer(jetstream.ConsumerConfig{Durable: "shipping", AckWait: 30 * time.Second})
	var fixed atomic.Bool
	var billed, shipped atomic.Int32
	_, brec := e.start(billing, func(context.Context, bus.Msg) error {
		if !fixed.Load() {
			return errDeclined
		}
		billed.Add(1)
		return nil
	}, bus.WithName("billing"))
	_, srec := e.start(shipping, func(context.Context, bus.Msg) error {
		shipped.Add(1)
		return nil
	}, bus.WithName("shipping"))
	e.publish("orders.1", "x", nil)
	brec.wait(t, 10*time.Second, "billing's dead letter", count(1))
	srec.wait(t, 10*time.Second, "shipping's ack", count(1))
	fixed.Store(true)
	if done, err := e.dlq.Replay(t.Context()); err != nil || len(done) != 1 {
		t.Fatalf("Replay = %v, %v", done, err)
	}
	brec.wait(t, 10*time.Second, "billing processing the replay", count(2))
	evs := srec.wait(t, 10*time.Second, "shipping settling the replay", count(2))
	if evs[1].Decision.Action != bus.ActionAck {
		t.Fatalf("shipping: %s", describe(evs))
	}
	if b, s := billed.Load(), shipped.Load(); b != 1 || s != 1 {
		t.Fatalf("billing ran %d times after the fix, shipping %d times in all; want 1 and 1", b, s)
	}
}
