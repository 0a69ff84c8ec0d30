package bus

import "github.com/retrylint/retrylint/runtime/dlq"

// WithBeforeTerm sets a hook that runs after a successful DLQ write and
// before Term: the crash test exits the process there.
func WithBeforeTerm(f func(*dlq.Entry)) Option {
	return func(r *Runner) error {
		r.beforeTerm = f
		return nil
	}
}
