package retry_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrylint/retrylint/runtime/retry"
)

// fixedJitter returns a jitter source that always returns j and records the
// limits it was asked for.
func fixedJitter(j time.Duration, limits *[]time.Duration) retry.PolicyOption {
	return retry.WithJitterSource(func(limit time.Duration) time.Duration {
		if limits != nil {
			*limits = append(*limits, limit)
		}
		return j
	})
}

func mustPolicy(t *testing.T, opts ...retry.PolicyOption) *retry.Policy {
	t.Helper()
	p, err := retry.NewPolicy(opts...)
	if err != nil {
		t.Fatalf("NewPolicy: %v", err)
	}
	return p
}

func TestPolicyDefaults(t *testing.T) {
	var limits []time.Duration
	p := mustPolicy(t, fixedJitter(0, &limits))
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30}
	for i, w := range want {
		if got := p.Delay(i + 1); got != w*time.Second {
			t.Errorf("Delay(%d) = %v, want %v", i+1, got, w*time.Second)
		}
	}
	for _, l := range limits {
		if l != 500*time.Millisecond {
			t.Fatalf("jitter limit = %v, want 500ms", l)
		}
	}
	if p.MaxAttempts() != 50 || p.Jitter() != 500*time.Millisecond {
		t.Fatalf("MaxAttempts, Jitter = %d, %v", p.MaxAttempts(), p.Jitter())
	}
	if d := retry.DefaultPolicy(); d.MaxAttempts() != retry.DefaultMaxAttempts || d.Step(3) != 4*time.Second {
		t.Fatal("DefaultPolicy does not use the defaults")
	}
}

func TestPolicyStepAndJitter(t *testing.T) {
	p := mustPolicy(t, retry.WithBase(100*time.Millisecond), retry.WithCap(time.Second),
		retry.WithJitter(50*time.Millisecond), fixedJitter(20*time.Millisecond, nil))
	cases := map[int]time.Duration{
		-3: 100 * time.Millisecond, // attempts below 1 count as 1
		0:  100 * time.Millisecond,
		1:  100 * time.Millisecond,
		2:  200 * time.Millisecond,
		4:  800 * time.Millisecond,
		5:  time.Second, // 1.6s capped
		80: time.Second, // no overflow on huge exponents
	}
	for n, want := range cases {
		if got := p.Step(n); got != want {
			t.Errorf("Step(%d) = %v, want %v", n, got, want)
		}
		if got := p.Delay(n); got != want+20*time.Millisecond {
			t.Errorf("Delay(%d) = %v, want %v", n, got, want+20*time.Millisecond)
		}
	}
	// A jitter source that misbehaves is clamped into [0, jitter).
	hi := mustPolicy(t, retry.WithJitter(50*time.Millisecond), fixedJitter(time.Hour, nil))
	if got := hi.Delay(1); got != time.Second+50*time.Millisecond-1 {
		t.Errorf("Delay with oversized jitter = %v", got)
	}
	lo := mustPolicy(t, retry.WithJitter(50*time.Millisecond), fixedJitter(-time.Hour, nil))
	if got := lo.Delay(1); got != time.Second {
		t.Errorf("Delay with negative jitter = %v", got)
	}
	none := mustPolicy(t, retry.WithJitter(0), fixedJitter(time.Hour, nil))
	if got := none.Delay(2); got != 2*time.Second {
		t.Errorf("Delay without jitter = %v", got)
	}
	// A huge base and cap near the int64 limit do not overflow.
	big := mustPolicy(t, retry.WithBase(time.Duration(1<<62)), retry.WithCap(time.Duration(1<<62)), retry.WithJitter(0))
	if got := big.Step(10); got != time.Duration(1<<62) {
		t.Errorf("Step with huge base = %v", got)
	}
}

func TestPolicyCryptoJitterInRange(t *testing.T) {
	p := mustPolicy(t, retry.WithBase(time.Millisecond), retry.WithCap(time.Millisecond), retry.WithJitter(10*time.Millisecond))
	seen := map[time.Duration]bool{}
	for range 200 {
		d := p.Delay(1)
		if d < time.Millisecond || d >= 11*time.Millisecond {
			t.Fatalf("Delay = %v, outside [1ms, 11ms)", d)
		}
		seen[d] = true
	}
	if len(seen) < 50 {
		t.Fatalf("only %d distinct delays in 200 draws: jitter is not random", len(seen))
	}
}

func TestPolicyOptionsRejectBadValues(t *testing.T) {
	cases := map[string]retry.PolicyOption{
		"zero base":       retry.WithBase(0),
		"negative cap":    retry.WithCap(-time.Second),
		"negative jitter": retry.WithJitter(-1),
		"zero attempts":   retry.WithMaxAttempts(0),
		"nil clock":       retry.WithClock(nil),
		"nil jitter":      retry.WithJitterSource(nil),
	}
	for name, opt := range cases {
		if _, err := retry.NewPolicy(opt); !errors.Is(err, retry.ErrInvalidOption) {
			t.Errorf("%s: err = %v, want ErrInvalidOption", name, err)
		}
	}
	_, err := retry.NewPolicy(retry.WithBase(time.Minute), retry.WithCap(time.Second))
	if !errors.Is(err, retry.ErrInvalidOption) {
		t.Errorf("cap below base: err = %v, want ErrInvalidOption", err)
	}
}

func TestPolicyWindow(t *testing.T) {
	if got, want := retry.DefaultPolicy().Window(), 22*time.Minute+55*time.Second+500*time.Millisecond; got != want {
		t.Fatalf("default Window = %v, want %v", got, want)
	}
	p := mustPolicy(t, retry.WithBase(time.Second), retry.WithCap(4*time.Second), retry.WithJitter(time.Second), retry.WithMaxAttempts(5))
	// Retries follow attempts 1..4: 1+2+4+4 seconds, plus 4 seconds of jitter.
	if got := p.Window(); got != 15*time.Second {
		t.Fatalf("Window = %v, want 15s", got)
	}
	if one := mustPolicy(t, retry.WithMaxAttempts(1)); one.Window() != 0 {
		t.Fatalf("Window with one attempt = %v, want 0", one.Window())
	}
}

func TestPolicyExhausted(t *testing.T) {
	p := mustPolicy(t, retry.WithMaxAttempts(3))
	for n, want := range map[int]bool{1: false, 2: false, 3: true, 4: true} {
		if got := p.Exhausted(n); got != want {
			t.Errorf("Exhausted(%d) = %v, want %v", n, got, want)
		}
	}
	if _, ok := p.NextDelay(context.Background(), 3); ok {
		t.Error("NextDelay after the last attempt scheduled a retry")
	}
}

func TestNextDelayRespectsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPolicy(t, retry.WithJitter(0)) // 1s, 2s, 4s...
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()

		if d, ok := p.NextDelay(ctx, 1); !ok || d != time.Second {
			t.Fatalf("NextDelay(1) = %v, %v; want 1s, true", d, ok)
		}
		if d, ok := p.NextDelay(ctx, 3); !ok || d != 4*time.Second {
			t.Fatalf("NextDelay(3) = %v, %v; want 4s, true (4s < 5s budget)", d, ok)
		}
		time.Sleep(2 * time.Second) // 3s of budget left
		if _, ok := p.NextDelay(ctx, 3); ok {
			t.Fatal("NextDelay(3) scheduled a 4s retry with 3s of budget left")
		}
		if d, ok := p.NextDelay(ctx, 2); !ok || d != 2*time.Second {
			t.Fatalf("NextDelay(2) = %v, %v; want 2s, true", d, ok)
		}
		time.Sleep(time.Second) // 2s left: a retry at exactly the deadline is refused
		if _, ok := p.NextDelay(ctx, 2); ok {
			t.Fatal("NextDelay scheduled a retry at the deadline")
		}
		cancel()
		if _, ok := p.NextDelay(ctx, 1); ok {
			t.Fatal("NextDelay scheduled a retry on a canceled context")
		}
		if _, ok := p.NextDelay(context.Background(), 49); !ok {
			t.Fatal("NextDelay without deadline refused a retry")
		}
	})
}

func TestNextDelayUsesInjectedClock(t *testing.T) {
	// The injected clock runs an hour ahead of the real one: only it can
	// tell whether a retry fits the budget.
	now := time.Now().Add(time.Hour)
	p := mustPolicy(t, retry.WithJitter(0), retry.WithClock(func() time.Time { return now }))
	ctx, cancel := context.WithDeadline(context.Background(), now.Add(1500*time.Millisecond))
	defer cancel()
	if _, ok := mustPolicy(t, retry.WithJitter(0)).NextDelay(ctx, 2); !ok {
		t.Fatal("on the real clock, a 2s retry fits the budget")
	}
	if _, ok := p.NextDelay(ctx, 1); !ok {
		t.Fatal("a 1s retry should fit a 1.5s budget on the injected clock")
	}
	if _, ok := p.NextDelay(ctx, 2); ok {
		t.Fatal("a 2s retry should not fit a 1.5s budget on the injected clock")
	}
}

func TestDo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPolicy(t, retry.WithJitter(0), retry.WithMaxAttempts(4))
		start := time.Now()
		var at []time.Duration
		calls := 0
		err := retry.Do(context.Background(), p, func(context.Context) error {
			at = append(at, time.Since(start))
			calls++
			switch calls {
			case 1:
				return retry.Transient(io.EOF) // policy delay: 1s
			case 2:
				return retry.RetryAfter(io.EOF, 7*time.Second) // carried delay wins
			}
			return nil
		})
		if err != nil || calls != 3 {
			t.Fatalf("Do = %v after %d calls", err, calls)
		}
		want := []time.Duration{0, time.Second, 8 * time.Second}
		for i := range want {
			if at[i] != want[i] {
				t.Fatalf("call times = %v, want %v", at, want)
			}
		}
	})
}

func TestDoStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustPolicy(t, retry.WithJitter(0), retry.WithMaxAttempts(3))
		ctx := context.Background()

		// Permanent: returned unchanged after one call.
		calls := 0
		perm := errors.New("bad input")
		if err := retry.Do(ctx, p, func(context.Context) error { calls++; return perm }); err != perm || calls != 1 {
			t.Fatalf("permanent: Do = %v after %d calls", err, calls)
		}

		// Exhausted: the intent survives in the returned chain.
		calls = 0
		err := retry.Do(ctx, p, func(context.Context) error { calls++; return retry.RetryAfter(io.EOF, time.Second) })
		if !errors.Is(err, retry.ErrGaveUp) || !errors.Is(err, io.EOF) || calls != 3 {
			t.Fatalf("exhausted: Do = %v after %d calls", err, calls)
		}
		if d, ok := retry.RetryDelay(err); !ok || d != time.Second {
			t.Fatalf("exhausted: retry intent lost: %v, %v", d, ok)
		}

		// Deadline: a carried delay past the budget is not waited for.
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		start := time.Now()
		err = retry.Do(dctx, p, func(context.Context) error { return retry.RetryAfter(io.EOF, time.Minute) })
		if !errors.Is(err, retry.ErrGaveUp) || time.Since(start) != 0 {
			t.Fatalf("deadline: Do = %v after %v", err, time.Since(start))
		}

		// Cancellation during a wait.
		cctx, ccancel := context.WithCancel(ctx)
		go func() { time.Sleep(500 * time.Millisecond); ccancel() }()
		err = retry.Do(cctx, p, func(context.Context) error { return retry.Transient(io.EOF) })
		if !errors.Is(err, context.Canceled) || !errors.Is(err, io.EOF) {
			t.Fatalf("canceled: Do = %v", err)
		}

		// A zero carried delay retries at once.
		calls = 0
		start = time.Now()
		err = retry.Do(ctx, p, func(context.Context) error {
			calls++
			if calls < 3 {
				return retry.RetryAfter(io.EOF, 0)
			}
			return nil
		})
		if err != nil || calls != 3 || time.Since(start) != 0 {
			t.Fatalf("zero delay: Do = %v, %d calls, %v", err, calls, time.Since(start))
		}
	})
}
