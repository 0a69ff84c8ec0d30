package bus_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// maxDelivered returns the stream sequences the server gave up on: its
// MAX_DELIVERIES advisories, after which it never delivers the message to
// the consumer again.
func (a *advisories) maxDelivered() []uint64 {
	a.t.Helper()
	msgs, err := streamMsgs(a.t.Context(), a.st)
	if err != nil {
		a.t.Fatal(err)
	}
	var out []uint64
	for _, m := range msgs {
		if !strings.HasPrefix(m.Subject, maxDeliveriesPrefix+".") {
			continue
		}
		var adv struct {
			StreamSeq uint64 `json:"stream_seq"`
		}
		if err := json.Unmarshal(m.Data, &adv); err != nil {
			a.t.Fatal(err)
		}
		out = append(out, adv.StreamSeq)
	}
	return out
}

// spareWatch is the env's DLQ store (its other methods too, HandBack
// among them), and signals the first write on the given delivery.
type spareWatch struct {
	*dlq.Store
	on   uint64
	once sync.Once
	seen chan struct{}
}

func (w *spareWatch) Write(ctx context.Context, e *dlq.Entry) error {
	if e.Deliveries == w.on {
		w.once.Do(func() { close(w.seen) })
	}
	return w.Store.Write(ctx, e)
}

// TestDrainWithTheDLQDownOnTheSpareDeliveryLosesNothing: MaxDeliver 3 (a
// runner cap of 2). The handler fails on delivery 2 while the DLQ is down;
// the server's spare delivery 3 retries the write in process, and the
// runner is drained while the DLQ is still down. The server will not
// deliver the message again, so a Nak there loses it (the server's
// MAX_DELIVERIES advisory, no DLQ entry). The runner hands it back to its
// stream instead: once the DLQ is back, a runner dead-letters the copy
// without running the handler, and the DLQ holds one entry for the
// original, with the handler's error and its verdict's class. Read from
// the server: the DLQ stream, the advisories, the consumer's counts.
func TestDrainWithTheDLQDownOnTheSpareDeliveryLosesNothing(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 30 * time.Second, MaxDeliver: 3})
	var calls callCounter
	h := func(_ context.Context, m bus.Msg) error {
		if calls.add(m.Subject()) == 2 {
			if err := e.js.DeleteStream(t.Context(), e.dlq.Name()); err != nil { // the DLQ goes down
				t.Error(err)
			}
		}
		return retry.RetryAfter(errors.New("inventory service unavailable"), 100*time.Millisecond)
	}
	spare := &spareWatch{Store: e.dlq, on: 3, seen: make(chan struct{})}
	opts := []bus.Option{bus.WithLogger(e.log), bus.WithDeadLetterTimeout(500 * time.Millisecond),
		bus.WithDeadLetterRetryDelay(200 * time.Millisecond), bus.WithDrainTimeout(300 * time.Millisecond)}
	first, err := bus.NewRunner(t.Context(), cons, spare, h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- first.Run(context.Background()) }()
	seq := e.publish("orders.1", "x", nil)
	select {
	case <-spare.seen: // the spare delivery's write, refused
	case <-time.After(10 * time.Second):
		t.Fatal("no write on the spare delivery")
	}
	first.Drain()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after Drain")
	}

	if _, err := dlq.New(t.Context(), e.js); err != nil { // the DLQ is back
		t.Fatal(err)
	}
	e.start(cons, h, bus.WithDeadLetterTimeout(time.Second))
	deadline := time.Now().Add(10 * time.Second)
	for len(e.entries()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("10s after the drain the DLQ holds no entry, and the server gave up on stream seqs %v "+
				"(MAX_DELIVERIES advisories) of message %d: lost", adv.maxDelivered(), seq)
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := e.entries()
	if len(got) != 1 {
		t.Fatalf("DLQ: %d entries, want 1", len(got))
	}
	en := got[0]
	if en.StreamSeq != seq || en.Subject != "orders.1" || string(en.Data) != "x" || en.Class != string(bus.ClassLastDelivery) ||
		!strings.Contains(en.Error, "inventory service unavailable") {
		t.Fatalf("entry: seq %d subject %q data %q class %q error %q", en.StreamSeq, en.Subject, en.Data, en.Class, en.Error)
	}
	if n := calls.get("orders.1"); n != 2 {
		t.Fatalf("handler ran %d times, want 2 (no run on the spare delivery or the copy)", n)
	}
	e.settled(cons)
	if md := adv.maxDelivered(); slices.Contains(md, seq) {
		t.Fatalf("the server gave up on the original (MAX_DELIVERIES %v): it was handed back, and acked", md)
	}
	// The copy is terminated once its entry is stored; the original,
	// whose work the copy carries on, is acked.
	waitFor(t, 5*time.Second, "the copy's Term", func() bool { return len(adv.terminated()) == 1 })
	if term := adv.terminated(); term[0] == seq {
		t.Fatalf("terminated %v: the original, not its copy", term)
	}
}
