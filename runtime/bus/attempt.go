package bus

import (
	"context"
	"fmt"
	"time"
)

// Attempt is what the runner knows of a message's retries when its handler
// runs. A handler reads it with AttemptFromContext.
type Attempt struct {
	// Number is the attempt: 1 on the first, the failed attempts before
	// this delivery plus one. Releases at shutdown and snoozes are not
	// attempts, so it can be lower than Delivery.
	Number int
	// Delivery is the server's delivery count (NumDelivered), which counts
	// every delivery.
	Delivery uint64
	// Exact reports that Number is exact: the runner knows every earlier
	// delivery (from its Ledger, or because it saw them all). When false,
	// the deliveries it knows nothing of are counted as failed attempts,
	// as the server's count does.
	Exact bool
	// Snoozes is how often the handler snoozed the message so far.
	Snoozes int
	// FirstFailure is when the message first failed (zero on the first
	// attempt, or when unknown); LastClass the class of its last failure.
	FirstFailure time.Time
	LastClass    string
	// Stored is when the stream stored the message: its age is measured
	// from it.
	Stored time.Time
	// AgeBudgetEnd is when the message-age budget ends (WithMaxAge): no
	// retry is scheduled at or after it. Zero without a budget.
	AgeBudgetEnd time.Time
}

// attemptKey is the context key of the handler call's Attempt.
type attemptKey struct{}

// AttemptFromContext returns the Attempt of the delivery whose handler
// received ctx, and false outside a runner's handler call (a handler run
// elsewhere, in a test: then treat the message as a first attempt).
func AttemptFromContext(ctx context.Context) (Attempt, bool) {
	a, ok := ctx.Value(attemptKey{}).(*Attempt)
	if !ok || a == nil {
		return Attempt{Number: 1}, false
	}
	return *a, true
}

// SnoozeError is what Snooze returns: the handler asks for the message
// again after Delay, and it is not a failure.
type SnoozeError struct {
	Delay time.Duration
}

// Snooze returns the error a handler returns to have the message delivered
// again after d without counting a failed attempt (River's snooze): the
// work is not due yet, a rate limit asks to wait, a dependency the message
// waits for is not there yet. The message is redelivered with
// NakWithDelay(d); the attempt number, the backoff and the class budgets
// do not move, and no first failure is recorded. Each snooze still is a
// delivery: the delivery cap and the message-age budget (WithMaxAge) still
// apply, and a snooze on the last delivery is dead-lettered (class
// snooze). A d of 0 or less snoozes for the backoff policy's first delay.
func Snooze(d time.Duration) error { return &SnoozeError{Delay: max(d, 0)} }

// Error says the message is snoozed.
func (e *SnoozeError) Error() string { return fmt.Sprintf("bus: snoozed for %v", e.Delay) }
