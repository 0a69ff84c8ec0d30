package bus_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/retry"
)

// The seed's scheduler errors (Cordum): each gets a class policy.
var (
	errNoWorkers     = errors.New("no workers")
	errNoPoolMapping = errors.New("no pool mapping")
	errSuperseded    = errors.New("superseded by a newer order")
)

// throttleError is a marker type matched with bus.As.
type throttleError struct{ tenant string }

func (e *throttleError) Error() string { return "safety throttle for tenant " + e.tenant }

// fakeClock is the runner's clock in tests of time budgets: handlers move
// it on instead of the test waiting.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Now()} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *fakeClock) advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// newLedger returns a retry ledger on the env's server.
func (e *env) newLedger() *ledger.Store {
	e.t.Helper()
	l, err := ledger.New(e.t.Context(), e.js, ledger.WithStorage(jetstream.MemoryStorage))
	if err != nil {
		e.t.Fatal(err)
	}
	return l
}

// bySubject returns the DLQ entries by original subject, failing on two
// entries for one subject.
func (e *env) bySubject() map[string]*dlq.Entry {
	e.t.Helper()
	out := map[string]*dlq.Entry{}
	for _, en := range e.entries() {
		if out[en.Subject] != nil {
			e.t.Fatalf("two DLQ entries for %s", en.Subject)
		}
		out[en.Subject] = en
	}
	return out
}

// settled waits until the server has nothing pending for cons.
func (e *env) settled(cons jetstream.Consumer) {
	e.t.Helper()
	waitFor(e.t, 20*time.Second, "nothing pending on the consumer", func() bool {
		info := e.info(cons)
		return info.NumPending == 0 && info.NumAckPending == 0
	})
}

// callCounter counts handler calls by subject.
type callCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *callCounter) add(subject string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[subject]++
	return c.n[subject]
}

func (c *callCounter) get(subject string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[subject]
}

// TestClassPoliciesGiveEachClassItsOwnBudget: a table of class policies
// matched by an errors.Is target, a marker type and a predicate, each with
// its delays, attempt cap and terminal action. Read from the server: each
// class is dead-lettered on its own attempt count under its own class name
// (no_pool_mapping on its first failure although marked transient, no
// workers after 3 attempts although unmarked), and the discarded class is
// acked with no DLQ entry and no Term.
func TestClassPoliciesGiveEachClassItsOwnBudget(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(bus.ConsumerConfig("worker"))
	var calls callCounter
	h := func(_ context.Context, m bus.Msg) error {
		calls.add(m.Subject())
		switch m.Subject() {
		case "orders.workers":
			return fmt.Errorf("schedule: %w", errNoWorkers) // unmarked: the default would dead-letter it at once
		case "orders.mapping":
			return retry.Transient(fmt.Errorf("schedule: %w", errNoPoolMapping)) // marked transient: the class fails fast anyway
		case "orders.throttled":
			return fmt.Errorf("admit: %w", &throttleError{tenant: "t7"})
		case "orders.quota":
			return errors.New("quota exceeded for tenant t7")
		case "orders.superseded":
			return errSuperseded
		}
		return nil
	}
	policies := []bus.ClassPolicy{
		{Class: "no_workers", Match: bus.Is(errNoWorkers), Delays: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond}, MaxAttempts: 3},
		{Class: "no_pool_mapping", Match: bus.Is(errNoPoolMapping), MaxAttempts: 1},
		{Class: "safety_throttle", Match: bus.As[*throttleError](), Delays: []time.Duration{50 * time.Millisecond}, MaxAttempts: 2},
		{Class: "quota", Match: func(err error) bool { return strings.Contains(err.Error(), "quota exceeded") },
			Delays: []time.Duration{50 * time.Millisecond}, MaxAttempts: 4},
		{Class: "superseded", Match: bus.Is(errSuperseded), MaxAttempts: 1, Terminal: bus.TerminalDiscard},
	}
	_, rec := e.start(cons, h, bus.WithClassPolicies(policies...))
	seqs := map[string]uint64{}
	for _, s := range []string{"workers", "mapping", "throttled", "quota", "superseded", "ok"} {
		seqs["orders."+s] = e.publish("orders."+s, "{}", nil)
	}
	e.settled(cons)
	got := e.bySubject()
	want := map[string]struct {
		class    string
		attempts uint64
	}{
		"orders.workers":   {"no_workers", 3},
		"orders.mapping":   {"no_pool_mapping", 1},
		"orders.throttled": {"safety_throttle", 2},
		"orders.quota":     {"quota", 4},
	}
	if len(got) != len(want) {
		t.Fatalf("DLQ holds entries for %v, want %d subjects", slices.Sorted(maps.Keys(got)), len(want))
	}
	var terminated []uint64
	for subject, w := range want {
		en := got[subject]
		if en == nil || en.Class != w.class || en.Attempts != w.attempts || en.Deliveries != w.attempts ||
			en.Budget != bus.BudgetAttempts || !en.BudgetEnd.IsZero() || calls.get(subject) != int(w.attempts) {
			t.Errorf("%s: DLQ entry %+v after %d calls, want class %s after %d attempts (budget attempts)", subject, en, calls.get(subject), w.class, w.attempts)
		}
		terminated = append(terminated, seqs[subject])
	}
	slices.Sort(terminated)
	waitFor(t, 5*time.Second, "the server's terminated advisories", func() bool {
		got := adv.terminated()
		slices.Sort(got)
		return slices.Equal(got, terminated)
	})
	if calls.get("orders.superseded") != 1 {
		t.Errorf("superseded: %d calls, want 1 (discarded on its first failure)", calls.get("orders.superseded"))
	}
	evs := rec.all()
	for _, ev := range evs {
		if ev.Subject == "orders.superseded" && (ev.Decision.Action != bus.ActionAck || ev.Decision.Class != "superseded") {
			t.Errorf("superseded: %s", describe([]timed{ev}))
		}
	}
}

// TestGraceWindowCountsFromTheFirstFailureAcrossInstances: a class retried
// within a grace window (2m30s) from its first failure, then dead-lettered
// under its own class with the window's end in the evidence. The runner's
// clock moves a minute per call. Two deliveries fail on runner A, which
// then stops; runner B, a fresh process with the same ledger, takes the
// rest: the window still counts from the first failure on A (B alone would
// count it from the message's store time and end it a minute early).
func TestGraceWindowCountsFromTheFirstFailureAcrossInstances(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(bus.ConsumerConfig("worker"))
	l := e.newLedger()
	clk := newClock()
	start := clk.now()
	const window = 150 * time.Second
	policy := bus.ClassPolicy{Class: "no_pool_mapping", Match: bus.Is(errNoPoolMapping), Delays: []time.Duration{300 * time.Millisecond}, Within: window}
	var mu sync.Mutex
	var attempts []int
	h := func(ctx context.Context, _ bus.Msg) error {
		clk.advance(time.Minute)
		a, _ := bus.AttemptFromContext(ctx)
		mu.Lock()
		attempts = append(attempts, a.Number)
		mu.Unlock()
		return fmt.Errorf("pick subject: %w", errNoPoolMapping)
	}
	opts := []bus.Option{bus.WithClassPolicies(policy), bus.WithLedger(l), bus.WithClock(clk.now), bus.WithConcurrency(1), bus.WithLogger(e.log)}

	seq := e.publish("orders.unmapped", "{}", nil)
	events := make(chan bus.Event, 8)
	a, err := bus.NewRunner(t.Context(), cons, e.dlq, h, append(opts, bus.WithObserver(func(ev bus.Event) { events <- ev }))...)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background()) }()
	for range 2 {
		select {
		case ev := <-events:
			if ev.Decision.Action != bus.ActionNakWithDelay {
				t.Fatalf("runner A: %s", describe([]timed{{Event: ev}}))
			}
		case <-time.After(10 * time.Second):
			t.Fatal("runner A: no event")
		}
	}
	a.Drain()
	if err := <-done; err != nil {
		t.Fatalf("runner A: %v", err)
	}

	e.start(cons, h, opts...) // runner B
	e.settled(cons)
	got := e.entries()
	if len(got) != 1 {
		t.Fatalf("DLQ: %+v", got)
	}
	en := got[0]
	first := start.Add(time.Minute)
	if en.StreamSeq != seq || en.Class != "no_pool_mapping" || en.Budget != bus.BudgetGrace ||
		!en.BudgetEnd.Equal(first.Add(window)) || !en.FirstFailure.Equal(first) || en.Attempts != 4 ||
		!strings.Contains(en.Error, "no pool mapping") {
		t.Fatalf("evidence: class %q budget %q ends %v (want %v), first failure %v (want %v), %d attempts (want 4), error %q",
			en.Class, en.Budget, en.BudgetEnd, first.Add(window), en.FirstFailure, first, en.Attempts, en.Error)
	}
	waitFor(t, 5*time.Second, "the server's terminated advisory", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(attempts, []int{1, 2, 3, 4}) {
		t.Errorf("attempt numbers seen by the handler: %v, want [1 2 3 4]", attempts)
	}
}

// TestMessageAgeBudgetEndsInTheDLQ: with a one-hour message-age budget and
// a clock that moves 40 minutes per call, the second failure's retry would
// start past the message's store time (read from the stream) plus an hour:
// the message is dead-lettered with class max_age, or its class policy's
// class, and the budget's end in the evidence, equal to the server's
// timestamp plus the budget.
func TestMessageAgeBudgetEndsInTheDLQ(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(bus.ConsumerConfig("worker"))
	clk := newClock()
	var (
		mu   sync.Mutex
		ends = map[string]time.Time{}
	)
	h := func(ctx context.Context, m bus.Msg) error {
		clk.advance(40 * time.Minute)
		a, _ := bus.AttemptFromContext(ctx)
		mu.Lock()
		ends[m.Subject()] = a.AgeBudgetEnd
		mu.Unlock()
		if m.Subject() == "orders.classed" {
			return errNoWorkers
		}
		return retry.Transient(errors.New("carrier API unavailable"))
	}
	e.start(cons, h, bus.WithMaxAge(time.Hour), bus.WithClock(clk.now), bus.WithBackoff(fastPolicy(t)), bus.WithConcurrency(1),
		bus.WithClassPolicies(bus.ClassPolicy{Class: "no_workers", Match: bus.Is(errNoWorkers), Delays: []time.Duration{50 * time.Millisecond}}))
	plain := e.publish("orders.plain", "{}", nil)
	waitFor(t, 10*time.Second, "the first message settled", func() bool { return len(e.entries()) == 1 })
	clk.set(time.Now()) // the second message's clock starts afresh
	classed := e.publish("orders.classed", "{}", nil)
	e.settled(cons)
	got := e.bySubject()
	for subject, w := range map[string]struct {
		seq   uint64
		class string
	}{"orders.plain": {plain, "max_age"}, "orders.classed": {classed, "no_workers"}} {
		raw, err := e.stream.GetMsg(t.Context(), w.seq)
		if err != nil {
			t.Fatal(err)
		}
		end := raw.Time.Add(time.Hour)
		en := got[subject]
		if en == nil || en.Class != w.class || en.Budget != bus.BudgetAge || !en.BudgetEnd.Equal(end) || en.Deliveries != 2 {
			t.Errorf("%s: DLQ entry %+v, want class %s, budget age ending %v (stored %v + 1h), 2 deliveries", subject, en, w.class, end, raw.Time)
		}
		mu.Lock()
		if !ends[subject].Equal(end) {
			t.Errorf("%s: the handler read the budget's end %v, want %v", subject, ends[subject], end)
		}
		mu.Unlock()
	}
	waitFor(t, 5*time.Second, "the server's terminated advisories", func() bool {
		got := adv.terminated()
		slices.Sort(got)
		return slices.Equal(got, []uint64{plain, classed})
	})
}

// TestSnoozesAreNotAttempts: a handler snoozes a message twice (the work
// is not due yet), then fails it with a class capped at 2 attempts. The
// handler reads attempts 1, 1, 1, 2 on deliveries 1 to 4, and the server's
// DLQ entry says 4 deliveries, 2 attempts.
func TestSnoozesAreNotAttempts(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(bus.ConsumerConfig("worker"))
	var (
		mu   sync.Mutex
		seen [][2]uint64 // attempt, delivery
	)
	h := func(ctx context.Context, _ bus.Msg) error {
		a, ok := bus.AttemptFromContext(ctx)
		if !ok || !a.Exact {
			t.Errorf("attempt %+v, %v: want an exact one", a, ok)
		}
		mu.Lock()
		seen = append(seen, [2]uint64{uint64(a.Number), a.Delivery})
		n := len(seen)
		mu.Unlock()
		if n <= 2 {
			return bus.Snooze(50 * time.Millisecond)
		}
		return errNoWorkers
	}
	_, rec := e.start(cons, h, bus.WithClassPolicies(bus.ClassPolicy{Class: "no_workers", Match: bus.Is(errNoWorkers),
		Delays: []time.Duration{50 * time.Millisecond}, MaxAttempts: 2}))
	seq := e.publish("orders.later", "{}", nil)
	e.settled(cons)
	got := e.entries()
	if len(got) != 1 || got[0].StreamSeq != seq || got[0].Deliveries != 4 || got[0].Attempts != 2 || got[0].Class != "no_workers" {
		for _, en := range got {
			t.Logf("DLQ entry: seq %d, class %s, %d deliveries, %d attempts", en.StreamSeq, en.Class, en.Deliveries, en.Attempts)
		}
		t.Fatalf("DLQ: %d entries, want one of seq %d, class no_workers, 4 deliveries, 2 attempts", len(got), seq)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := [][2]uint64{{1, 1}, {1, 2}, {1, 3}, {2, 4}}; !slices.Equal(seen, want) {
		t.Errorf("(attempt, delivery) seen by the handler: %v, want %v", seen, want)
	}
	evs := rec.all()
	if len(evs) != 4 || evs[0].Decision.Class != bus.ClassSnooze || evs[0].Decision.Action != bus.ActionNakWithDelay {
		t.Errorf("events: %s", describe(evs))
	}
}

// TestReleasesAreNotAttempts: runner A holds one message in its handler
// and a second in its pull buffer when it drains: the second is released
// (a delivery, not an attempt). Runner B, with the ledger, hands it to
// its handler as attempt 1 of delivery 2, exactly; the server acks both.
func TestReleasesAreNotAttempts(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(bus.ConsumerConfig("worker"))
	l := e.newLedger()
	e.publish("orders.1", "{}", nil)
	second := e.publish("orders.2", "{}", nil)
	started, release := make(chan struct{}), make(chan struct{})
	a, err := bus.NewRunner(t.Context(), cons, e.dlq, func(ctx context.Context, m bus.Msg) error {
		if m.Subject() == "orders.1" {
			close(started)
			<-release
			return nil
		}
		t.Errorf("runner A ran the handler for %s", m.Subject())
		return nil
	}, bus.WithLogger(e.log), bus.WithConcurrency(1), bus.WithLedger(l))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background()) }()
	<-started
	a.Drain()
	waitFor(t, 10*time.Second, "the shutdown to begin", func() bool { return bus.Stopping(a) })
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := make(chan bus.Attempt, 1)
	e.start(cons, func(ctx context.Context, m bus.Msg) error {
		at, _ := bus.AttemptFromContext(ctx)
		got <- at
		return nil
	}, bus.WithLedger(l))
	var at bus.Attempt
	select {
	case at = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("runner B got nothing")
	}
	e.settled(cons)
	if at.Number != 1 || at.Delivery != 2 || !at.Exact {
		t.Fatalf("attempt of the released message (seq %d): %+v, want attempt 1 of delivery 2, exact", second, at)
	}
	if n := len(e.entries()); n != 0 {
		t.Fatalf("%d DLQ entries", n)
	}
}
