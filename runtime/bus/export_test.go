package bus

import (
	"time"

	"github.com/retrylint/retrylint/runtime/dlq"
)

// WithBeforeTerm sets a hook that runs after a successful DLQ write and
// before Term: the crash test exits the process there.
func WithBeforeTerm(f func(*dlq.Entry)) Option {
	return func(r *Runner) error {
		r.beforeTerm = f
		return nil
	}
}

// WithConfirmTimeout shortens the wait for the server's answer to a
// confirmed Ack or Term, for the test that takes the server away.
func WithConfirmTimeout(d time.Duration) Option {
	return func(r *Runner) error {
		r.confirmTimeout = d
		return nil
	}
}

// Stopping reports whether r has begun its shutdown (it no longer starts
// handlers for new deliveries), so that a test can release a handler only
// once the buffered messages behind it will be released.
func Stopping(r *Runner) bool { return r.stopping.Load() }

// WithClock sets the clock the runner's decisions read (time budgets, the
// evidence's failure times), so that tests of grace windows and message
// ages move time on instead of waiting for it.
func WithClock(now func() time.Time) Option {
	return func(r *Runner) error {
		r.now = now
		return nil
	}
}
