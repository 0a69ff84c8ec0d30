package bus_test

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/retry"
)

// TestDecideClassPolicies walks one message through its failures with an
// injected clock: the class's delay schedule, its attempt cap, its grace
// window and the message-age budget, and what is left after each.
func TestDecideClassPolicies(t *testing.T) {
	stored := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cfg := testConfig(t)
	cfg.MaxDeliveries = 100
	cfg.MaxAge = time.Hour
	cfg.Classes = []bus.ClassPolicy{
		{Class: "no_workers", Match: bus.Is(errNoWorkers), Delays: []time.Duration{2 * time.Second, 5 * time.Second}, MaxAttempts: 4},
		{Class: "no_pool_mapping", Match: bus.Is(errNoPoolMapping), Delays: []time.Duration{10 * time.Second}, Within: 2 * time.Minute},
		{Class: "safety_throttle", Match: bus.As[*throttleError]()}, // the error's own delay, else the runner's policy
		{Class: "superseded", Match: bus.Is(errSuperseded), MaxAttempts: 1, Terminal: bus.TerminalDiscard},
	}
	type step struct {
		at     time.Duration // after the store time
		err    error
		action bus.Action
		delay  time.Duration
		class  bus.Class
		budget bus.Budget // End and Left relative: checked through endAfter
		end    time.Duration
	}
	run := func(t *testing.T, steps []step) {
		t.Helper()
		var hist ledger.Record
		for i, s := range steps {
			now := stored.Add(s.at)
			in := bus.Input{NumDelivered: uint64(i + 1), Ran: true, Err: s.err, History: hist, HistoryExact: true, Now: now, Stored: stored}
			d := bus.Decide(in, &cfg)
			want := s.budget
			want.End = stored.Add(s.end)
			if s.end == 0 {
				want.End = time.Time{}
			} else if want.Ended == "" {
				want.Left = want.End.Sub(now)
			}
			if d.Action != s.action || d.Requested != s.delay || d.Class != s.class || d.Budget != want {
				t.Fatalf("failure %d at +%v: %v %v %q %+v, want %v %v %q %+v (%s)", i+1, s.at, d.Action, d.Requested, d.Class, d.Budget,
					s.action, s.delay, s.class, want, d.Reason)
			}
			hist = hist.Failed(string(d.Class), now, uint64(i+1), s.err.Error(), nil)
		}
	}
	t.Run("schedule, then the class's attempt cap", func(t *testing.T) {
		run(t, []step{
			{0, errNoWorkers, bus.ActionNakWithDelay, 2 * time.Second, "no_workers", bus.Budget{Attempt: 1, AttemptsLeft: 3}, time.Hour},
			{time.Minute, errNoWorkers, bus.ActionNakWithDelay, 5 * time.Second, "no_workers", bus.Budget{Attempt: 2, AttemptsLeft: 2}, time.Hour},
			{2 * time.Minute, errNoWorkers, bus.ActionNakWithDelay, 5 * time.Second, "no_workers", bus.Budget{Attempt: 3, AttemptsLeft: 1}, time.Hour},
			{3 * time.Minute, errNoWorkers, bus.ActionDeadLetter, 0, "no_workers", bus.Budget{Attempt: 4, Ended: bus.BudgetAttempts}, time.Hour},
		})
	})
	t.Run("grace window from the class's first failure, not the message's", func(t *testing.T) {
		run(t, []step{
			{0, io.ErrUnexpectedEOF, bus.ActionNakWithDelay, 1100 * time.Millisecond, bus.ClassTransient, bus.Budget{Attempt: 1, AttemptsLeft: 4}, time.Hour},
			{time.Minute, fmt.Errorf("pick: %w", errNoPoolMapping), bus.ActionNakWithDelay, 10 * time.Second, "no_pool_mapping", bus.Budget{Attempt: 2, AttemptsLeft: 98}, 3 * time.Minute},
			{2 * time.Minute, errNoPoolMapping, bus.ActionNakWithDelay, 10 * time.Second, "no_pool_mapping", bus.Budget{Attempt: 3, AttemptsLeft: 97}, 3 * time.Minute},
			{2*time.Minute + 50*time.Second, errNoPoolMapping, bus.ActionDeadLetter, 0, "no_pool_mapping", bus.Budget{Attempt: 4, Ended: bus.BudgetGrace}, 3 * time.Minute},
		})
	})
	t.Run("the message-age budget ends under the class's name", func(t *testing.T) {
		run(t, []step{
			{50 * time.Minute, retry.RetryAfter(&throttleError{}, 5*time.Minute), bus.ActionNakWithDelay, 5 * time.Minute, "safety_throttle", bus.Budget{Attempt: 1, AttemptsLeft: 99}, time.Hour},
			{56 * time.Minute, retry.RetryAfter(&throttleError{}, 5*time.Minute), bus.ActionDeadLetter, 0, "safety_throttle", bus.Budget{Attempt: 2, Ended: bus.BudgetAge}, time.Hour},
		})
	})
	t.Run("an unclassed error past the message-age budget: max_age", func(t *testing.T) {
		run(t, []step{
			{59*time.Minute + 59*time.Second, retry.Transient(io.EOF), bus.ActionDeadLetter, 0, bus.ClassMaxAge, bus.Budget{Attempt: 1, Ended: bus.BudgetAge}, time.Hour},
		})
	})
	t.Run("discard", func(t *testing.T) {
		run(t, []step{
			{0, errSuperseded, bus.ActionAck, 0, "superseded", bus.Budget{Attempt: 1, Ended: bus.BudgetAttempts}, time.Hour},
		})
	})
}

// TestDecideWithoutTheHistory: when the runner does not know every earlier
// delivery, they count as failed attempts of the class since the message
// was stored: the budgets end early, never late.
func TestDecideWithoutTheHistory(t *testing.T) {
	stored := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cfg := testConfig(t)
	cfg.Classes = []bus.ClassPolicy{
		{Class: "no_pool_mapping", Match: bus.Is(errNoPoolMapping), Delays: []time.Duration{10 * time.Second}, Within: 2 * time.Minute, MaxAttempts: 5},
	}
	// Delivery 3 at +2m: with the history (first failure at +1m) within
	// the window; without it, counted from the store time: past it.
	first := stored.Add(time.Minute)
	hist := ledger.Record{}.Failed("no_pool_mapping", first, 2, "x", nil)
	in := bus.Input{NumDelivered: 3, Ran: true, Err: errNoPoolMapping, History: hist, HistoryExact: true, Now: stored.Add(2 * time.Minute), Stored: stored}
	if d := bus.Decide(in, &cfg); d.Action != bus.ActionNakWithDelay || d.Budget.Attempt != 2 || !d.Budget.End.Equal(first.Add(2*time.Minute)) {
		t.Fatalf("with the history: %+v", d)
	}
	in.HistoryExact = false
	if d := bus.Decide(in, &cfg); d.Action != bus.ActionDeadLetter || d.Budget.Attempt != 3 || d.Budget.Ended != bus.BudgetGrace ||
		!d.Budget.End.Equal(stored.Add(2*time.Minute)) {
		t.Fatalf("without the history: %+v", d)
	}
}

// TestDecideSnooze: a snooze is redelivered after its delay without moving
// the attempt; on the last delivery, or past the message-age budget, it is
// dead-lettered.
func TestDecideSnooze(t *testing.T) {
	stored := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cfg := testConfig(t)
	cfg.MaxAge = time.Hour
	hist := ledger.Record{}.Failed("transient", stored, 1, "x", nil).Snoozed(2)
	in := bus.Input{NumDelivered: 3, Ran: true, Err: fmt.Errorf("wait: %w", bus.Snooze(time.Minute)), History: hist, HistoryExact: true,
		Now: stored.Add(time.Minute), Stored: stored}
	if d := bus.Decide(in, &cfg); d.Action != bus.ActionNakWithDelay || d.Delay != time.Minute || d.Class != bus.ClassSnooze || d.Budget.Attempt != 2 {
		t.Fatalf("snooze: %+v", d)
	}
	in.Err = bus.Snooze(0)
	if d := bus.Decide(in, &cfg); d.Delay != cfg.Backoff.Step(1) {
		t.Fatalf("snooze 0: %+v, want the policy's first delay", d)
	}
	in.Err, in.Now = bus.Snooze(time.Minute), stored.Add(59*time.Minute+30*time.Second)
	if d := bus.Decide(in, &cfg); d.Action != bus.ActionDeadLetter || d.Class != bus.ClassMaxAge {
		t.Fatalf("snooze past the age budget: %+v", d)
	}
	in.Now, in.NumDelivered = stored.Add(time.Minute), cfg.MaxDeliveries
	if d := bus.Decide(in, &cfg); d.Action != bus.ActionDeadLetter || d.Class != bus.ClassLastDelivery {
		t.Fatalf("snooze on the last delivery: %+v", d)
	}
}

// TestDecideNeverBareNaksAFailure: whatever the error, a failure is never
// redelivered with a bare Nak (an immediate redelivery, in a loop while it
// keeps failing); only a release at shutdown is.
func TestDecideNeverBareNaksAFailure(t *testing.T) {
	cfg := testConfig(t)
	cfg.Classes = []bus.ClassPolicy{{Class: "no_workers", Match: bus.Is(errNoWorkers)}}
	errs := []error{io.EOF, io.ErrUnexpectedEOF, retry.RetryAfter(io.EOF, 0), retry.RetryAfter(io.EOF, -time.Second),
		retry.Transient(io.EOF), bus.Undecodable(io.EOF), retry.RetryAfter(errNoWorkers, 0), bus.Snooze(0), errors.New("x")}
	for n := uint64(1); n <= 12; n++ {
		for _, err := range errs {
			d := bus.Decide(bus.Input{NumDelivered: n, Ran: true, Err: err}, &cfg)
			if d.Action == bus.ActionNak {
				t.Fatalf("n=%d err=%v: a bare Nak: %+v", n, err, d)
			}
		}
	}
}

func TestClassPolicyOptionsAreValidated(t *testing.T) {
	ok := bus.ClassPolicy{Class: "c", Match: bus.Is(io.EOF)}
	for name, p := range map[string]bus.ClassPolicy{
		"no class":               {Match: bus.Is(io.EOF)},
		"a runner's class":       {Class: "permanent", Match: bus.Is(io.EOF)},
		"no match":               {Class: "c"},
		"delays and backoff":     {Class: "c", Match: bus.Is(io.EOF), Delays: []time.Duration{time.Second}, Backoff: retry.DefaultPolicy()},
		"zero delay":             {Class: "c", Match: bus.Is(io.EOF), Delays: []time.Duration{0}},
		"negative cap":           {Class: "c", Match: bus.Is(io.EOF), MaxAttempts: -1},
		"window under the delay": {Class: "c", Match: bus.Is(io.EOF), Delays: []time.Duration{time.Minute}, Within: time.Second},
		"terminal":               {Class: "c", Match: bus.Is(io.EOF), Terminal: 9},
	} {
		if err := bus.WithClassPolicies(p)(new(bus.Runner)); !errors.Is(err, bus.ErrInvalidOption) {
			t.Errorf("%s: %v, want ErrInvalidOption", name, err)
		}
	}
	if err := bus.WithClassPolicies(ok, ok)(new(bus.Runner)); !errors.Is(err, bus.ErrInvalidOption) {
		t.Errorf("a class twice: %v", err)
	}
}
