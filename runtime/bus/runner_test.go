package bus_test

import (
	"context"
	"errors"
	"fmt"
	"io"
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

var errDeclined = errors.New("card declined")

func actions(evs []timed) []string {
	var out []string
	for _, e := range evs {
		a := e.Decision.Action.String()
		if e.Decision.Action == bus.ActionNakWithDelay {
			a += " " + e.Decision.Delay.String()
		}
		out = append(out, a)
	}
	return out
}

func TestRedeliveryHonoursTheErrorDelay(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second})
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		switch d.mark(m) {
		case 1:
			return fmt.Errorf("reserve stock: %w", retry.RetryAfter(io.ErrUnexpectedEOF, time.Second))
		case 2:
			return retry.RetryAfter(io.ErrUnexpectedEOF, 500*time.Millisecond)
		}
		return nil
	})
	e.publish("orders.1", "x", nil)
	evs := rec.wait(t, 15*time.Second, "3 deliveries", count(3))
	if got, want := actions(evs), []string{"nak-delay 1s", "nak-delay 500ms", "ack"}; !slices.Equal(got, want) {
		t.Fatalf("actions = %q, want %q", got, want)
	}
	// Generous bounds: the delay is honoured (not an immediate redelivery),
	// and the redelivery is not the 30s ack-wait expiry.
	if g := d.gap(1, 2); g < 900*time.Millisecond || g > 10*time.Second {
		t.Fatalf("redelivery after NakWithDelay(1s) came after %v", g)
	}
	if g := d.gap(2, 3); g < 400*time.Millisecond || g > 10*time.Second {
		t.Fatalf("redelivery after NakWithDelay(500ms) came after %v", g)
	}
}

func TestTransientWithoutDelayUsesThePolicy(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second})
	policy, err := retry.NewPolicy(retry.WithBase(600*time.Millisecond), retry.WithJitter(0))
	if err != nil {
		t.Fatal(err)
	}
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		if d.mark(m) == 1 {
			return retry.Transient(io.ErrUnexpectedEOF)
		}
		return nil
	}, bus.WithBackoff(policy))
	e.publish("orders.1", "x", nil)
	evs := rec.wait(t, 15*time.Second, "2 deliveries", count(2))
	if got, want := actions(evs), []string{"nak-delay 600ms", "ack"}; !slices.Equal(got, want) {
		t.Fatalf("actions = %q, want %q", got, want)
	}
	if g := d.gap(1, 2); g < 500*time.Millisecond || g > 10*time.Second {
		t.Fatalf("redelivery after the policy's 600ms came after %v", g)
	}
}

func TestPermanentErrorIsDeadLetteredThenTerminated(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 300 * time.Millisecond})
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		d.mark(m)
		return fmt.Errorf("charge order: %w", errDeclined)
	})
	seq := e.publish("orders.eu.7", `{"id":7}`, nats.Header{"Trace-Id": {"t-7"}})
	evs := rec.wait(t, 10*time.Second, "a dead letter", count(1))
	if got := actions(evs); !slices.Equal(got, []string{"dead-letter"}) || evs[0].DeadLetterErr != nil || evs[0].AckErr != nil {
		t.Fatalf("actions = %q (%s)", got, describe(evs))
	}
	time.Sleep(1500 * time.Millisecond) // 5 ack waits: a non-terminated message would be back
	if n := d.calls(); n != 1 {
		t.Fatalf("handler called %d times; Term did not stop redelivery", n)
	}
	if info := e.info(cons); info.NumAckPending != 0 || info.NumRedelivered != 0 {
		t.Fatalf("consumer: %d ack pending, %d redelivered", info.NumAckPending, info.NumRedelivered)
	}
	// an Ack would leave no advisory; the advisory is stored apart from the Term
	waitFor(t, 5*time.Second, "the server's terminated advisory", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
	got := e.entries()
	if len(got) != 1 {
		t.Fatalf("DLQ holds %d entries, want 1", len(got))
	}
	en := got[0]
	if en.Subject != "orders.eu.7" || en.Stream != "ORDERS" || en.Consumer != "worker" || en.StreamSeq != seq ||
		en.ConsumerSeq != 1 || en.Deliveries != 1 || en.Class != "permanent" || en.Handler != "test" ||
		en.Error != "charge order: card declined" || string(en.Data) != `{"id":7}` || en.Header.Get("Trace-Id") != "t-7" ||
		!slices.Equal(en.ErrorTypes, []string{"*fmt.wrapError", "*errors.errorString"}) ||
		en.Stored.IsZero() || en.FirstFailure.IsZero() || en.LastFailure.Before(en.FirstFailure) {
		t.Fatalf("evidence: %+v", en)
	}
}

func TestUndecodablePayloadHitsThePoisonThreshold(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second})
	var inner atomic.Int32
	var d deliveries
	_, rec := e.start(cons, func(ctx context.Context, m bus.Msg) error {
		d.mark(m)
		return bus.JSON(func(context.Context, struct{ ID int }, bus.Msg) error {
			inner.Add(1)
			return nil
		})(ctx, m)
	}, bus.WithPoisonDelay(300*time.Millisecond))
	e.publish("orders.1", "{not json", nil)
	evs := rec.wait(t, 15*time.Second, "3 deliveries", count(3))
	if got, want := actions(evs), []string{"nak-delay 300ms", "nak-delay 300ms", "dead-letter"}; !slices.Equal(got, want) {
		t.Fatalf("actions = %q, want %q", got, want)
	}
	if g1, g2 := d.gap(1, 2), d.gap(2, 3); g1 < 250*time.Millisecond || g2 < 250*time.Millisecond {
		t.Fatalf("poison redeliveries came after %v and %v, want the 300ms delay", g1, g2)
	}
	time.Sleep(500 * time.Millisecond)
	if inner.Load() != 0 || d.calls() != 3 {
		t.Fatalf("inner handler ran %d times, %d deliveries", inner.Load(), d.calls())
	}
	got := e.entries()
	if len(got) != 1 || got[0].Class != "undecodable" || got[0].Deliveries != 3 || !strings.Contains(got[0].Error, "undecodable payload") {
		t.Fatalf("DLQ: %+v", got)
	}
}

func TestLastDeliveryIsDeadLetteredByTheRunner(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second, MaxDeliver: 4})
	var d deliveries
	r, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		d.mark(m)
		return retry.RetryAfter(errors.New("inventory service unavailable"), 100*time.Millisecond)
	})
	if c := r.Config(); c.MaxDeliveries != 3 {
		t.Fatalf("cap = %d, want 3, one short of the consumer's MaxDeliver 4", c.MaxDeliveries)
	}
	e.publish("orders.1", "x", nil)
	evs := rec.wait(t, 15*time.Second, "3 deliveries", count(3))
	if got, want := actions(evs), []string{"nak-delay 100ms", "nak-delay 100ms", "dead-letter"}; !slices.Equal(got, want) {
		t.Fatalf("actions = %q, want %q", got, want)
	}
	time.Sleep(500 * time.Millisecond)
	if d.calls() != 3 {
		t.Fatalf("%d deliveries, want 3", d.calls())
	}
	got := e.entries()
	if len(got) != 1 || got[0].Class != "last_delivery" || got[0].Deliveries != 3 || got[0].RetryDelay != 100*time.Millisecond {
		t.Fatalf("DLQ: %+v", got)
	}
	if got[0].FirstFailure.Equal(got[0].LastFailure) || got[0].FirstFailure.After(got[0].LastFailure) {
		t.Fatalf("first failure %v, last %v", got[0].FirstFailure, got[0].LastFailure)
	}
}

func TestDeliveryPastTheCapIsDeadLetteredWithoutRunningTheHandler(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 200 * time.Millisecond, MaxDeliver: -1})
	e.publish("orders.1", "x", nil)
	// Two workers crash during the message: delivered twice, never acked.
	for i := range 2 {
		m, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			t.Fatalf("raw fetch %d: %v", i+1, err)
		}
		if md, _ := m.Metadata(); md.NumDelivered != uint64(i+1) {
			t.Fatalf("raw fetch %d: delivery %d", i+1, md.NumDelivered)
		}
	}
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error { d.mark(m); return nil }, bus.WithMaxDeliveries(2))
	evs := rec.wait(t, 10*time.Second, "a dead letter", count(1))
	if evs[0].NumDelivered != 3 || evs[0].Decision.Class != bus.ClassMaxDeliveries || evs[0].Decision.Action != bus.ActionDeadLetter {
		t.Fatalf("events: %s", describe(evs))
	}
	if d.calls() != 0 {
		t.Fatal("the handler ran on a delivery past the cap")
	}
	if got := e.entries(); len(got) != 1 || got[0].Class != "max_deliveries" || got[0].Deliveries != 3 {
		t.Fatalf("DLQ: %+v", got)
	}
}

func TestDeadLetterOutageLeadsToRedeliveryNotTerm(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second})
	if err := e.js.DeleteStream(t.Context(), e.dlq.Name()); err != nil { // the DLQ is down
		t.Fatal(err)
	}
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		d.mark(m)
		return errDeclined
	}, bus.WithDeadLetterRetryDelay(300*time.Millisecond), bus.WithDeadLetterTimeout(2*time.Second))
	e.publish("orders.1", "x", nil)
	first := rec.wait(t, 10*time.Second, "a failed dead letter", count(1))[0]
	if first.DeadLetterErr == nil || first.Decision.Action != bus.ActionNakWithDelay ||
		first.Decision.Delay != 300*time.Millisecond || first.Decision.Class != bus.ClassDeadLetterFailed {
		t.Fatalf("first delivery: %s", describe([]timed{first}))
	}
	if got := adv.terminated(); len(got) != 0 { // the server's word, not the runner's
		t.Fatalf("terminated %v while the DLQ was down", got)
	}
	if _, err := dlq.New(t.Context(), e.js); err != nil { // the DLQ is back
		t.Fatal(err)
	}
	evs := rec.wait(t, 15*time.Second, "a dead letter", func(evs []timed) bool {
		last := evs[len(evs)-1]
		return last.Decision.Action == bus.ActionDeadLetter && last.DeadLetterErr == nil
	})
	for _, ev := range evs[:len(evs)-1] { // every failure was a delayed redelivery
		if ev.DeadLetterErr == nil || ev.Decision.Action != bus.ActionNakWithDelay {
			t.Fatalf("events: %s", describe(evs))
		}
	}
	last := evs[len(evs)-1]
	if last.NumDelivered < 2 { // it came back: it was not terminated
		t.Fatalf("events: %s", describe(evs))
	}
	got := e.entries()
	if len(got) != 1 || got[0].Deliveries != last.NumDelivered {
		t.Fatalf("DLQ: %+v", got)
	}
	waitFor(t, 5*time.Second, "the Term", func() bool { return len(adv.terminated()) == 1 })
}

func TestAdvisoryCatchesDeliveriesTheRunnerNeverSawFail(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 2 * time.Second, MaxDeliver: 2})
	seq := e.publish("orders.lost", "payload", nats.Header{"K": {"v"}})
	// Workers that crash take both deliveries; the last one will expire
	// without a verdict.
	for i := range 2 {
		if _, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second)); err != nil {
			t.Fatalf("raw fetch %d: %v", i+1, err)
		}
	}
	var d deliveries
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error { d.mark(m); return nil }, bus.WithAdvisories(e.js))
	evs := rec.wait(t, 15*time.Second, "an advisory dead letter", count(1))
	if evs[0].Decision.Class != bus.ClassAdvisory || evs[0].DeadLetterErr != nil || evs[0].StreamSeq != seq {
		t.Fatalf("events: %s", describe(evs))
	}
	if d.calls() != 0 {
		t.Fatal("handler ran")
	}
	got := e.entries()
	if len(got) != 1 || got[0].Class != "max_deliveries_advisory" || got[0].Subject != "orders.lost" ||
		string(got[0].Data) != "payload" || got[0].Header.Get("K") != "v" || got[0].Deliveries != 2 || got[0].StreamSeq != seq {
		t.Fatalf("DLQ: %+v", got)
	}
}

func TestReplayedMessageIsProcessedAgain(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second})
	var fixed atomic.Bool
	var replayOf atomic.Value
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		if !fixed.Load() {
			return errDeclined
		}
		replayOf.Store(m.Headers().Get(dlq.HeaderReplayOf))
		return nil
	})
	e.publish("orders.1", "x", nats.Header{"Trace-Id": {"t-1"}})
	rec.wait(t, 10*time.Second, "a dead letter", count(1))
	fixed.Store(true) // the bug is fixed; replay
	done, err := e.dlq.Replay(t.Context(), dlq.ReplayDelete())
	if err != nil || len(done) != 1 {
		t.Fatalf("Replay = %v, %v", done, err)
	}
	evs := rec.wait(t, 10*time.Second, "an ack", count(2))
	if evs[1].Decision.Action != bus.ActionAck || evs[1].Subject != "orders.1" || replayOf.Load() != "1" {
		t.Fatalf("events: %s (replay of %v)", describe(evs), replayOf.Load())
	}
	if got := e.entries(); len(got) != 0 {
		t.Fatalf("DLQ holds %d entries after replay with delete", len(got))
	}
}

// TestRetryAfterZeroIsNotABareNakLoop: a handler that keeps asking for a
// retry at once (RetryAfter(err, 0)) is paced by the backoff policy (a
// five-minute step here): the server counts one delivery and the message
// waits, instead of a bare Nak bringing it straight back, again and
// again, up to the delivery cap.
func TestRetryAfterZeroIsNotABareNakLoop(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(bus.ConsumerConfig("worker"))
	policy, err := retry.NewPolicy(retry.WithBase(5*time.Minute), retry.WithCap(5*time.Minute), retry.WithJitter(0))
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	_, rec := e.start(cons, func(context.Context, bus.Msg) error {
		calls.Add(1)
		return retry.RetryAfter(errors.New("optimistic lock lost"), 0)
	}, bus.WithBackoff(policy))
	e.publish("orders.1", "{}", nil)
	evs := rec.wait(t, 10*time.Second, "the first failure", count(1))
	if evs[0].Decision.Action != bus.ActionNakWithDelay || evs[0].Decision.Delay != 5*time.Minute {
		t.Fatalf("decision: %s", describe(evs))
	}
	time.Sleep(time.Second) // a bare Nak loop comes back within milliseconds
	info := e.info(cons)
	if info.Delivered.Consumer != 1 || info.NumAckPending != 1 || calls.Load() != 1 {
		t.Fatalf("the server delivered %d times (%d ack pending), the handler ran %d times; want 1 delivery, waiting",
			info.Delivered.Consumer, info.NumAckPending, calls.Load())
	}
}
