package bus

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrylint/retrylint/runtime/retry"
)

// ClassPolicy gives one class of errors a retry budget of its own: its
// delays, its attempt cap, its grace window and what happens when they end.
// A runner's policies (WithClassPolicies) form a table that Decide reads
// before it looks at the error's retry marks: the first policy whose Match
// takes the error decides, so that "no pool mapping" and "no workers" do
// not share one policy because both happen to be transient.
//
// A message whose error a policy took is dead-lettered under the policy's
// Class whichever budget ended (the class's own, the message-age budget or
// the delivery cap; dlq.Entry.Budget says which), so the evidence names
// the cause, not the counter that ran out.
type ClassPolicy struct {
	// Class names the class on spans, metrics and logs, and is the DLQ
	// entry's class when the policy gives up. It must not be one of the
	// runner's own classes (transient, permanent, ...).
	Class string
	// Match reports whether an error belongs to the class: Is for an
	// errors.Is target, As for a marker type, or any predicate.
	Match func(error) bool
	// Delays is the delay schedule: the delay after the class's k-th
	// failed attempt is Delays[k-1], the last one repeating. Without
	// Delays, Backoff chooses; without either, the delay the error
	// carries (retry.RetryAfter), else the runner's backoff policy.
	Delays []time.Duration
	// Backoff chooses the delays from the class's attempt count, and,
	// when MaxAttempts is 0, caps the attempts with its own.
	Backoff *retry.Policy
	// MaxAttempts caps the attempts that fail with this class (1: give up
	// on the first failure, fail fast). 0 leaves the cap to Backoff, or to
	// the runner's delivery cap.
	MaxAttempts int
	// Within is the grace window: the class is retried only while the
	// retry starts within this long after the message's first failure of
	// this class; then the policy gives up. It is measured from the first
	// failure the runner knows of: exact with a Ledger (WithLedger), which
	// every instance reads; without one, a delivery this runner did not
	// see counts the window from the message's store time (never later
	// than the real first failure: the window can end early, not late).
	// 0 is no window.
	Within time.Duration
	// Terminal is what happens when MaxAttempts or Within ends (default
	// TerminalDeadLetter). The message-age budget and the delivery cap
	// always dead-letter.
	Terminal Terminal
}

// Terminal is what a ClassPolicy does with a message once its budget ends.
type Terminal int

const (
	// TerminalDeadLetter writes the DLQ entry, checks it, then Terms.
	TerminalDeadLetter Terminal = iota
	// TerminalDiscard Acks the message without a DLQ entry: for a class
	// that says the message no longer matters (superseded, already
	// applied). The Event says so (ActionAck with the policy's class) and
	// the runner logs it.
	TerminalDiscard
)

// String returns the terminal action's name.
func (t Terminal) String() string {
	switch t {
	case TerminalDeadLetter:
		return "dead-letter"
	case TerminalDiscard:
		return "discard"
	}
	return fmt.Sprintf("Terminal(%d)", int(t))
}

// Is returns a Match for the errors whose chain holds target (errors.Is).
func Is(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

// As returns a Match for the errors whose chain holds an E (errors.As):
// a concrete error type, or a marker interface that embeds error.
func As[E error]() func(error) bool {
	return func(err error) bool {
		var e E
		return errors.As(err, &e)
	}
}

// builtinClasses are the runner's own classes, which a ClassPolicy may not
// take: the evidence must say which is which.
var builtinClasses = []Class{
	ClassTransient, ClassPermanent, ClassUndecodable, ClassLastDelivery, ClassMaxDeliveries,
	ClassRetriesExhausted, ClassDeadLetterFailed, ClassShutdown, ClassAdvisory, ClassSnooze, ClassMaxAge,
}

// check validates one policy.
func (p *ClassPolicy) check() error {
	switch {
	case p.Class == "" || strings.ContainsAny(p.Class, "\r\n"):
		return fmt.Errorf("class policy: class %q must be a non-empty line", p.Class)
	case slices.Contains(builtinClasses, Class(p.Class)):
		return fmt.Errorf("class policy %q: the name is one of the runner's own classes", p.Class)
	case p.Match == nil:
		return fmt.Errorf("class policy %q: nil Match", p.Class)
	case len(p.Delays) > 0 && p.Backoff != nil:
		return fmt.Errorf("class policy %q: Delays and Backoff both set", p.Class)
	case p.MaxAttempts < 0:
		return fmt.Errorf("class policy %q: MaxAttempts %d is negative", p.Class, p.MaxAttempts)
	case p.Within < 0:
		return fmt.Errorf("class policy %q: Within %v is negative", p.Class, p.Within)
	case p.Terminal != TerminalDeadLetter && p.Terminal != TerminalDiscard:
		return fmt.Errorf("class policy %q: terminal action %d", p.Class, p.Terminal)
	}
	for i, d := range p.Delays {
		if d <= 0 {
			return fmt.Errorf("class policy %q: Delays[%d] %v must be positive", p.Class, i, d)
		}
	}
	if p.Within > 0 && len(p.Delays) > 0 && p.Within <= p.Delays[0] {
		return fmt.Errorf("class policy %q: grace window %v is not longer than the first delay %v, so the class is never retried (say MaxAttempts: 1)", p.Class, p.Within, p.Delays[0])
	}
	return nil
}

// WithClassPolicies sets the runner's table of class policies, consulted in
// order (see ClassPolicy). Class names must be unique.
func WithClassPolicies(policies ...ClassPolicy) Option {
	return func(r *Runner) error {
		seen := make(map[string]bool, len(policies))
		for i := range policies {
			if err := policies[i].check(); err != nil {
				return fmt.Errorf("%w: %w", ErrInvalidOption, err)
			}
			if seen[policies[i].Class] {
				return fmt.Errorf("%w: class policy %q twice", ErrInvalidOption, policies[i].Class)
			}
			seen[policies[i].Class] = true
		}
		r.cfg.Classes = slices.Clone(policies)
		return nil
	}
}

// match returns the first policy that takes err, or nil.
func (cfg *Config) match(err error) *ClassPolicy {
	for i := range cfg.Classes {
		if cfg.Classes[i].Match(err) {
			return &cfg.Classes[i]
		}
	}
	return nil
}

// delay returns the policy's delay after the class's attempt k, and
// whether it has one of its own (Delays or Backoff).
func (p *ClassPolicy) delay(k int) (time.Duration, bool) {
	switch {
	case len(p.Delays) > 0:
		return p.Delays[min(k, len(p.Delays))-1], true
	case p.Backoff != nil:
		return p.Backoff.Delay(k), true
	}
	return 0, false
}

// attemptCap returns the class's attempt cap, 0 for none.
func (p *ClassPolicy) attemptCap() int {
	switch {
	case p.MaxAttempts > 0:
		return p.MaxAttempts
	case p.Backoff != nil:
		return p.Backoff.MaxAttempts()
	}
	return 0
}
