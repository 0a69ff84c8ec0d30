package retry

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// ErrInvalidOption is wrapped by every error a PolicyOption returns.
var ErrInvalidOption = errors.New("retry: invalid option")

// Policy defaults.
const (
	DefaultBase        = time.Second
	DefaultCap         = 30 * time.Second
	DefaultJitter      = 500 * time.Millisecond
	DefaultMaxAttempts = 50
)

// Policy is an exponential backoff: the delay after attempt n (1-based) is
// min(base·2^(n-1), cap) plus a random jitter in [0, jitter). After
// maxAttempts attempts it schedules no more retries. A Policy is immutable
// and safe for concurrent use.
type Policy struct {
	base, cap, jitter time.Duration
	maxAttempts       int
	now               func() time.Time
	rand              func(limit time.Duration) time.Duration
}

// PolicyOption configures a Policy. It returns an error wrapping
// ErrInvalidOption when its argument is out of range.
type PolicyOption func(*Policy) error

// WithBase sets the delay after the first attempt (default 1s). It must be
// positive.
func WithBase(d time.Duration) PolicyOption {
	return func(p *Policy) error {
		if d <= 0 {
			return fmt.Errorf("%w: base delay %v must be positive", ErrInvalidOption, d)
		}
		p.base = d
		return nil
	}
}

// WithCap sets the largest delay before jitter (default 30s). It must be
// positive; NewPolicy checks that it is not below the base.
func WithCap(d time.Duration) PolicyOption {
	return func(p *Policy) error {
		if d <= 0 {
			return fmt.Errorf("%w: delay cap %v must be positive", ErrInvalidOption, d)
		}
		p.cap = d
		return nil
	}
}

// WithJitter sets the exclusive upper bound of the random jitter added to
// every delay (default 500ms). 0 disables jitter.
func WithJitter(d time.Duration) PolicyOption {
	return func(p *Policy) error {
		if d < 0 {
			return fmt.Errorf("%w: jitter %v must not be negative", ErrInvalidOption, d)
		}
		p.jitter = d
		return nil
	}
}

// WithMaxAttempts sets how many attempts are made in all, the first one
// included (default 50). It must be at least 1.
func WithMaxAttempts(n int) PolicyOption {
	return func(p *Policy) error {
		if n < 1 {
			return fmt.Errorf("%w: max attempts %d must be at least 1", ErrInvalidOption, n)
		}
		p.maxAttempts = n
		return nil
	}
}

// WithClock sets the clock NextDelay compares deadlines with (default
// time.Now). For tests.
func WithClock(now func() time.Time) PolicyOption {
	return func(p *Policy) error {
		if now == nil {
			return fmt.Errorf("%w: nil clock", ErrInvalidOption)
		}
		p.now = now
		return nil
	}
}

// WithJitterSource sets the source of jitter (default crypto/rand). It is
// called with the jitter bound and must return a value in [0, limit); values
// outside are clamped. For tests.
func WithJitterSource(f func(limit time.Duration) time.Duration) PolicyOption {
	return func(p *Policy) error {
		if f == nil {
			return fmt.Errorf("%w: nil jitter source", ErrInvalidOption)
		}
		p.rand = f
		return nil
	}
}

// NewPolicy returns a Policy with the defaults changed by opts.
func NewPolicy(opts ...PolicyOption) (*Policy, error) {
	p := &Policy{
		base:        DefaultBase,
		cap:         DefaultCap,
		jitter:      DefaultJitter,
		maxAttempts: DefaultMaxAttempts,
		now:         time.Now,
		rand:        cryptoJitter,
	}
	for _, opt := range opts {
		if err := opt(p); err != nil {
			return nil, err
		}
	}
	if p.cap < p.base {
		return nil, fmt.Errorf("%w: delay cap %v is below base delay %v", ErrInvalidOption, p.cap, p.base)
	}
	return p, nil
}

// DefaultPolicy returns the policy with every default: 1s to 30s, jitter
// below 500ms, 50 attempts.
func DefaultPolicy() *Policy {
	p, _ := NewPolicy() // the defaults are valid
	return p
}

// MaxAttempts returns the attempt cap.
func (p *Policy) MaxAttempts() int { return p.maxAttempts }

// Jitter returns the exclusive jitter bound.
func (p *Policy) Jitter() time.Duration { return p.jitter }

// Exhausted reports whether no retry may follow attempt n.
func (p *Policy) Exhausted(n int) bool { return n >= p.maxAttempts }

// Step returns the delay after attempt n without jitter:
// min(base·2^(n-1), cap). Attempts below 1 count as 1.
func (p *Policy) Step(n int) time.Duration {
	d := p.base
	for i := 1; i < n; i++ {
		if d >= p.cap/2 {
			return p.cap // doubling would reach or pass the cap (or overflow)
		}
		d *= 2
	}
	return min(d, p.cap)
}

// Delay returns the delay after attempt n: Step(n) plus jitter. It does not
// look at the attempt cap; see NextDelay.
func (p *Policy) Delay(n int) time.Duration {
	d := p.Step(n)
	if p.jitter > 0 {
		j := p.rand(p.jitter)
		d += min(max(j, 0), p.jitter-1)
	}
	return d
}

// Window returns the worst-case time spent waiting between the first and
// the last attempt: the sum of Step(n) plus the full jitter for every
// attempt n that may be followed by a retry. With the defaults it is
// 22m55.5s (1+2+4+8+16 seconds, then 44 times 30s, plus 49 times 500ms).
func (p *Policy) Window() time.Duration {
	var w time.Duration
	for n := 1; n < p.maxAttempts; n++ {
		w += p.Step(n) + p.jitter
	}
	return w
}

// NextDelay returns the delay before the retry that follows attempt n, and
// false when no retry may be scheduled: the attempts are exhausted, ctx is
// done, or the retry would start at or past ctx's deadline (the run budget
// wins over the retry budget).
func (p *Policy) NextDelay(ctx context.Context, n int) (time.Duration, bool) {
	if p.Exhausted(n) {
		return 0, false
	}
	d := p.Delay(n)
	if !p.fits(ctx, d) {
		return 0, false
	}
	return d, true
}

// fits reports whether a retry after d starts before ctx's deadline.
func (p *Policy) fits(ctx context.Context, d time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	if deadline, ok := ctx.Deadline(); ok && !p.now().Add(d).Before(deadline) {
		return false
	}
	return true
}

// cryptoJitter returns a uniformly random duration in [0, limit) from
// crypto/rand, so that workers that failed together do not retry together.
func cryptoJitter(limit time.Duration) time.Duration {
	if limit <= 0 {
		return 0
	}
	n, err := rand.Int(rand.Reader, big.NewInt(int64(limit)))
	if err != nil { // crypto/rand does not fail on supported platforms
		return 0
	}
	return time.Duration(n.Int64())
}
