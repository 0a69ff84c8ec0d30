package bus

import (
	"context"
	"time"
)

// callContext is the context of one handler call. It is canceled by the
// watch loop once the call outlives the handler timeout (with
// context.DeadlineExceeded, as context.WithTimeout would) and by shutdown
// after the drain timeout (context.Canceled); Deadline reports the handler
// timeout, so that the handler's own timeouts stay within it.
//
// It replaces context.WithTimeout, whose timer, set and stopped on every
// message, was the largest cost the runner added to a delivery: the watch
// loop already looks at every call at each tick. The price is precision:
// the cancellation comes up to one tick after the deadline (a quarter of
// the timeout, or half the heartbeat interval, whichever is shorter).
// Contexts a handler derives from it see context.Canceled, not
// DeadlineExceeded, when the timeout cancels them (context.Cause tells).
//
// It also carries the delivery's Attempt (AttemptFromContext), as a field
// read by Value rather than a context.WithValue layer: no allocation of
// its own per message.
type callContext struct {
	context.Context // from context.WithCancelCause
	deadline        time.Time
	attempt         Attempt
	cfg             *Config // the runner's, for middleware that classifies as it does (Logger)
}

// newCallContext returns a call's context under parent with the deadline,
// and the function that cancels it (with a nil cause at the end of the
// call and at shutdown, with DeadlineExceeded at the timeout).
func newCallContext(parent context.Context, deadline time.Time, a Attempt, cfg *Config) (*callContext, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	return &callContext{Context: ctx, deadline: deadline, attempt: a, cfg: cfg}, cancel
}

func (c *callContext) Deadline() (time.Time, bool) { return c.deadline, true }

// Value returns the call's Attempt for attemptKey, the runner's Config for
// configKey, and asks the parent otherwise.
func (c *callContext) Value(key any) any {
	switch key.(type) {
	case attemptKey:
		return &c.attempt
	case configKey:
		return c.cfg
	}
	return c.Context.Value(key)
}

// configKey is the context key of the runner's Config.
type configKey struct{}

// Err is DeadlineExceeded when the call was canceled for its timeout.
func (c *callContext) Err() error {
	err := c.Context.Err()
	if err != nil && context.Cause(c.Context) == context.DeadlineExceeded {
		return context.DeadlineExceeded
	}
	return err
}
