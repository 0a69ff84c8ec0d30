package bus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// journal records, in order, the broker calls of fake messages and the
// writes of a fake DLQ.
type journal struct {
	mu    sync.Mutex
	calls []string
}

func (j *journal) add(s string) {
	j.mu.Lock()
	j.calls = append(j.calls, s)
	j.mu.Unlock()
}

func (j *journal) get() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.calls)
}

// fakeMsg is a jetstream.Msg that records its acknowledgements.
type fakeMsg struct {
	j  *journal
	md jetstream.MsgMetadata
}

func (m *fakeMsg) Metadata() (*jetstream.MsgMetadata, error) { md := m.md; return &md, nil }
func (m *fakeMsg) Data() []byte                              { return []byte("payload") }
func (m *fakeMsg) Headers() nats.Header                      { return nats.Header{"H": {"v"}} }
func (m *fakeMsg) Subject() string                           { return "orders.1" }
func (m *fakeMsg) Reply() string                             { return "" }
func (m *fakeMsg) Ack() error                                { m.j.add("ack"); return nil }
func (m *fakeMsg) DoubleAck(context.Context) error           { m.j.add("double-ack"); return nil }
func (m *fakeMsg) Nak() error                                { m.j.add("nak"); return nil }
func (m *fakeMsg) NakWithDelay(d time.Duration) error        { m.j.add("nak " + d.String()); return nil }
func (m *fakeMsg) InProgress() error                         { m.j.add("progress"); return nil }
func (m *fakeMsg) Term() error                               { m.j.add("term"); return nil }
func (m *fakeMsg) TermWithReason(r string) error             { m.j.add("term " + r); return nil }

// fakeDLQ fails its first fail writes.
type fakeDLQ struct {
	j       *journal
	fail    int
	entries []*dlq.Entry
}

func (f *fakeDLQ) Write(_ context.Context, e *dlq.Entry) error {
	if f.fail > 0 {
		f.fail--
		f.j.add("dlq-write failed")
		return io.ErrClosedPipe
	}
	f.j.add("dlq-write")
	f.entries = append(f.entries, e)
	return nil
}

func testRunner(t testing.TB, j *journal, dead *fakeDLQ, h Handler) *Runner {
	r := &Runner{
		cfg:            DefaultConfig(),
		dlq:            dead,
		handler:        h,
		name:           "test-handler",
		log:            slog.New(slog.DiscardHandler),
		hctx:           context.Background(),
		callBase:       context.Background(),
		dlqTimeout:     time.Second,
		handlerTimeout: DefaultHandlerTimeout,
		slots:          []*slot{new(slot)},
		now:            time.Now,
	}
	r.cfg.MaxDeliveries = 5
	p, err := retry.NewPolicy(retry.WithJitter(0))
	if err != nil {
		t.Fatal(err)
	}
	r.cfg.Backoff = p
	return r
}

func delivery(j *journal, n uint64) *fakeMsg {
	return &fakeMsg{j: j, md: jetstream.MsgMetadata{
		NumDelivered: n, Stream: "ORDERS", Consumer: "c",
		Sequence:  jetstream.SequencePair{Stream: 42, Consumer: 100 + n},
		Timestamp: time.Unix(1700000000, 0),
	}}
}

func TestProcessMapsOutcomes(t *testing.T) {
	perm := errors.New("bad order")
	cases := []struct {
		name string
		n    uint64
		err  error
		fail int
		want []string
	}{
		{"success", 1, nil, 0, []string{"ack"}},
		{"delay > 0", 1, retry.RetryAfter(io.EOF, 2*time.Second), 0, []string{"nak 2s"}},
		{"delay == 0: the policy's delay, not a bare Nak", 1, retry.RetryAfter(io.EOF, 0), 0, []string{"nak 1s"}},
		{"permanent: write, then term", 1, perm, 0, []string{"dlq-write", "term"}},
		{"DLQ failure: nak 5s, no term", 1, perm, 1, []string{"dlq-write failed", "nak 5s"}},
		{"undecodable", 1, Undecodable(io.EOF), 0, []string{"nak 5s"}},
		{"undecodable on delivery 3", 3, Undecodable(io.EOF), 0, []string{"dlq-write", "term"}},
		{"last delivery", 5, retry.RetryAfter(io.EOF, time.Second), 0, []string{"dlq-write", "term"}},
		{"last delivery, DLQ failure", 5, retry.RetryAfter(io.EOF, time.Second), 1, []string{"dlq-write failed", "nak 5s"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := &journal{}
			dead := &fakeDLQ{j: j, fail: tc.fail}
			ran := 0
			r := testRunner(t, j, dead, func(context.Context, Msg) error { ran++; return tc.err })
			var events []Event
			r.observe = func(e Event) { events = append(events, e) }
			r.process(delivery(j, tc.n), r.slots[0])
			if got := j.get(); !slices.Equal(got, tc.want) {
				t.Fatalf("calls = %q, want %q", got, tc.want)
			}
			if ran != 1 || len(events) != 1 {
				t.Fatalf("handler ran %d times, %d events", ran, len(events))
			}
			if tc.fail > 0 && (events[0].DeadLetterErr == nil || events[0].Decision.Class != ClassDeadLetterFailed) {
				t.Fatalf("event after a DLQ failure: %+v", events[0])
			}
		})
	}
}

func TestProcessPastTheCapSkipsHandler(t *testing.T) {
	j := &journal{}
	dead := &fakeDLQ{j: j}
	r := testRunner(t, j, dead, func(context.Context, Msg) error { t.Fatal("handler ran past the cap"); return nil })
	r.process(delivery(j, 6), r.slots[0])
	if got := j.get(); !slices.Equal(got, []string{"dlq-write", "term"}) {
		t.Fatalf("calls = %q", got)
	}
	e := dead.entries[0]
	if e.Class != string(ClassMaxDeliveries) || e.Deliveries != 6 || !strings.Contains(e.Error, "over the cap of 5") {
		t.Fatalf("evidence = %+v", e)
	}
}

func TestProcessWhileStoppingReleases(t *testing.T) {
	j := &journal{}
	r := testRunner(t, j, &fakeDLQ{j: j}, func(context.Context, Msg) error { t.Fatal("handler ran while stopping"); return nil })
	r.stopping.Store(true)
	r.process(delivery(j, 1), r.slots[0])
	// The release waits for the pull request to be gone (releaseHeld),
	// and later ones go at once.
	if got := j.get(); len(got) != 0 {
		t.Fatalf("calls before the pull request is gone = %q", got)
	}
	r.releaseHeld()
	r.process(delivery(j, 2), r.slots[0])
	if got := j.get(); !slices.Equal(got, []string{"nak", "nak"}) {
		t.Fatalf("calls = %q", got)
	}
}

func TestEvidence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j := &journal{}
		dead := &fakeDLQ{j: j}
		calls := 0
		r := testRunner(t, j, dead, func(context.Context, Msg) error {
			calls++
			if calls == 1 {
				return retry.RetryAfter(io.EOF, time.Second)
			}
			return retry.Permanent(errors.New("line one\nline two"))
		})
		start := time.Now()
		r.process(delivery(j, 1), r.slots[0])
		time.Sleep(time.Minute)
		r.process(delivery(j, 2), r.slots[0])
		e := dead.entries[0]
		want := dlq.Entry{
			Subject: "orders.1", Stream: "ORDERS", Consumer: "c", StreamSeq: 42, ConsumerSeq: 102,
			Stored: time.Unix(1700000000, 0), Deliveries: 2, FirstFailure: start, LastFailure: start.Add(time.Minute),
			Class: "permanent", Error: "line one\nline two", Handler: "test-handler",
		}
		if e.Subject != want.Subject || e.Stream != want.Stream || e.Consumer != want.Consumer ||
			e.StreamSeq != want.StreamSeq || e.ConsumerSeq != want.ConsumerSeq || !e.Stored.Equal(want.Stored) ||
			e.Deliveries != want.Deliveries || !e.FirstFailure.Equal(want.FirstFailure) || !e.LastFailure.Equal(want.LastFailure) ||
			e.Class != want.Class || e.Error != want.Error || e.Handler != want.Handler ||
			string(e.Data) != "payload" || e.Header.Get("H") != "v" {
			t.Fatalf("evidence\n%+v\nwant\n%+v", e, want)
		}
		if !slices.Equal(e.ErrorTypes, []string{"*retry.PermanentError", "*errors.errorString"}) {
			t.Fatalf("error types = %q", e.ErrorTypes)
		}
		if _, ok := r.fails.get(42, 0); ok {
			t.Fatal("first failure still remembered after the dead letter")
		}
	})
}

func TestEvidenceOfACarriedDelayAndAPanic(t *testing.T) {
	j := &journal{}
	dead := &fakeDLQ{j: j}
	r := testRunner(t, j, dead, func(context.Context, Msg) error { return retry.RetryAfter(io.EOF, 3*time.Second) })
	r.process(delivery(j, 5), r.slots[0]) // last delivery
	if e := dead.entries[0]; e.Class != string(ClassLastDelivery) || e.RetryDelay != 3*time.Second {
		t.Fatalf("evidence = %+v", e)
	}
	r.handler = func(context.Context, Msg) error { panic("boom") }
	r.process(delivery(j, 1), r.slots[0])
	if e := dead.entries[1]; e.Class != string(ClassPermanent) || !strings.HasPrefix(e.Error, "bus: handler panic: boom\n") || !strings.Contains(e.Error, "goroutine") {
		t.Fatalf("panic evidence = %+v", e)
	}
}

func TestFinalDeliveryRetriesDeadLetterInProcess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j := &journal{}
		dead := &fakeDLQ{j: j, fail: 2}
		r := testRunner(t, j, dead, func(context.Context, Msg) error { return errors.New("bad") })
		r.serverMax = 5 // the consumer's MaxDeliver: delivery 5 is the server's last
		start := time.Now()
		r.process(delivery(j, 5), r.slots[0])
		want := []string{"dlq-write failed", "progress", "dlq-write failed", "progress", "dlq-write", "term"}
		if got := j.get(); !slices.Equal(got, want) {
			t.Fatalf("calls = %q, want %q", got, want)
		}
		if took := time.Since(start); took != 10*time.Second {
			t.Fatalf("in-process retries took %v, want 2 × 5s", took)
		}

		// When the runner stops (its handlers are canceled), a Nak would
		// never be honoured: it hands the dead letter back to the stream
		// and acks the original, never a Nak or a Term; without anything
		// to hand it back through, it leaves the message unsettled.
		for _, canHandBack := range []bool{true, false} {
			j2 := &journal{}
			ctx, cancel := context.WithCancel(context.Background())
			var dead DeadLetterWriter = &fakeDLQ{j: j2, fail: 100}
			if canHandBack {
				dead = &handingBack{fakeDLQ: dead.(*fakeDLQ)}
			}
			r2 := testRunner(t, j2, &fakeDLQ{}, func(context.Context, Msg) error { return errors.New("bad") })
			r2.dlq, r2.serverMax, r2.hctx = dead, 5, ctx
			go func() { time.Sleep(7 * time.Second); cancel() }()
			r2.process(delivery(j2, 5), r2.slots[0])
			got := j2.get()
			want := "hand-back 42 from 42"
			if canHandBack && (len(got) < 2 || got[len(got)-2] != want || got[len(got)-1] != "ack") ||
				!canHandBack && got[len(got)-1] != "dlq-write failed" ||
				slices.ContainsFunc(got, func(c string) bool { return c == "term" || strings.HasPrefix(c, "nak") }) {
				t.Fatalf("can hand back %v: calls = %q", canHandBack, got)
			}
		}
	})
}

// handingBack is a fakeDLQ that can hand dead letters back.
type handingBack struct{ *fakeDLQ }

func (h *handingBack) HandBack(_ context.Context, e *dlq.Entry, from uint64) (*jetstream.PubAck, error) {
	h.j.add(fmt.Sprintf("hand-back %d from %d", e.StreamSeq, from))
	return &jetstream.PubAck{Stream: e.Stream, Sequence: 1000}, nil
}

func TestHeartbeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j := &journal{}
		r := testRunner(t, j, &fakeDLQ{j: j}, func(context.Context, Msg) error {
			time.Sleep(350 * time.Millisecond)
			return nil
		})
		r.heartbeat = 100 * time.Millisecond
		ctx, cancel := context.WithCancel(context.Background())
		var loop sync.WaitGroup
		loop.Go(func() { r.heartbeats(ctx) })
		r.process(delivery(j, 1), r.slots[0])
		time.Sleep(time.Second) // no heartbeat once the message is done
		cancel()
		loop.Wait()
		got := j.get()
		if got[len(got)-1] != "ack" || len(got) < 3 || len(got) > 5 {
			t.Fatalf("calls = %q, want 2-4 heartbeats then ack", got)
		}
		for _, c := range got[:len(got)-1] {
			if c != "progress" {
				t.Fatalf("calls = %q", got)
			}
		}
	})
}

func TestFailuresStayBounded(t *testing.T) {
	var f failures
	now := time.Now()
	fail := func(seq uint64, at time.Time) {
		rec, _ := f.get(seq, 7)
		f.put(seq, 7, rec.Failed("transient", at, 1, "x", nil))
	}
	for i := range uint64(maxRemembered * 3) {
		fail(i, now)
	}
	if n := len(f.m); n > maxRemembered || n == 0 {
		t.Fatalf("remembered %d records, bound %d", n, maxRemembered)
	}
	fail(1<<40, now)
	fail(1<<40, now.Add(time.Hour)) // the first failure is kept
	if got := f.firstOr(1<<40, time.Time{}); !got.Equal(now) {
		t.Fatalf("firstOr = %v, want %v", got, now)
	}
	if _, ok := f.get(1<<40, 8); ok {
		t.Fatal("a record applies to another message with the same sequence")
	}
	f.forget(1 << 40)
	if got := f.firstOr(1<<40, now.Add(time.Minute)); !got.Equal(now.Add(time.Minute)) {
		t.Fatal("forgotten failure still remembered")
	}
}

// TestOutagePauses: with the breaker on (WithOutagePause), no pause
// below OutagePauseAfter failed writes in a row, then the base delay doubling per failure up to the ceiling; a
// successful write ends the outage.
func TestOutagePauses(t *testing.T) {
	o := outage{after: OutagePauseAfter}
	now := time.Unix(1000, 0)
	base, ceiling := time.Second, 5*time.Second
	var got []time.Duration
	for range OutagePauseAfter + 3 {
		got = append(got, o.failed(now, base, ceiling))
	}
	want := []time.Duration{0, 0, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second}
	if !slices.Equal(got, want) {
		t.Errorf("pauses %v, want %v", got, want)
	}
	if until := o.pausedUntil(now.Add(time.Second)); !until.Equal(now.Add(5 * time.Second)) {
		t.Errorf("paused until %v, want %v", until, now.Add(5*time.Second))
	}
	if until := o.pausedUntil(now.Add(6 * time.Second)); !until.IsZero() {
		t.Errorf("still paused after the pause: %v", until)
	}
	o.succeeded()
	if p := o.failed(now, base, ceiling); p != 0 {
		t.Errorf("after a successful write, the first failure paused %v", p)
	}
	var off outage // the default: no breaker
	for range 10 * OutagePauseAfter {
		if p := off.failed(now, base, ceiling); p != 0 || off.active.Load() {
			t.Fatalf("without WithOutagePause the runner paused %v", p)
		}
	}
}

// TestBacklogHeartbeats: a message waiting in the backlog is heartbeated
// every heartbeat interval of ticks from its arrival, and the ticks since
// its last heartbeat go with it to the worker that takes it.
func TestBacklogHeartbeats(t *testing.T) {
	b := newBacklog()
	j := &journal{}
	first, second := delivery(j, 1), delivery(j, 2)
	if n, ok := b.push(first); !ok || n != 1 {
		t.Fatalf("push: %d, %v", n, ok)
	}
	var due []jetstream.Msg
	for tick := 1; tick <= 7; tick++ {
		if tick == 2 {
			b.push(second)
		}
		due = b.due(3, due)
	}
	// first: ticks 3 and 6; second (arrived after tick 1): tick 4 and 7.
	if len(due) != 4 || due[0] != first || due[1] != second || due[2] != first || due[3] != second {
		t.Fatalf("heartbeats: %v", due)
	}
	m, since, left, ok := b.pop()
	if m != first || since != 1 || left != 1 || !ok {
		t.Fatalf("pop: %v %d %d %v", m, since, left, ok)
	}
	b.close()
	if _, _, _, ok := b.pop(); ok {
		t.Fatal("pop after close")
	}
	if rest := b.rest(); len(rest) != 1 || rest[0].m != second || rest[0].sinceHB != 0 {
		t.Fatalf("rest: %+v", rest)
	}
	if _, ok := b.push(first); ok {
		t.Fatal("push after close")
	}
}
