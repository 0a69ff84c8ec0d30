package bus

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/retry"
)

// Action is what the runner does with a delivery.
type Action int

const (
	// ActionHandle: run the handler, then decide again with its outcome.
	ActionHandle Action = iota + 1
	// ActionAck: the handler succeeded.
	ActionAck
	// ActionNak: redeliver at once. Decide returns it only for a delay of
	// exactly 0 and for messages released at shutdown.
	ActionNak
	// ActionNakWithDelay: redeliver after Decision.Delay.
	ActionNakWithDelay
	// ActionDeadLetter: write the DLQ, check the write, then Term. If the
	// write fails, Decide with Input.DeadLetterErr set says what to do.
	ActionDeadLetter
)

// String returns the action's name.
func (a Action) String() string {
	switch a {
	case ActionHandle:
		return "handle"
	case ActionAck:
		return "ack"
	case ActionNak:
		return "nak"
	case ActionNakWithDelay:
		return "nak-delay"
	case ActionDeadLetter:
		return "dead-letter"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Class is why a delivery is retried or dead-lettered. It is stored as the
// evidence's classification (dlq.Entry.Class).
type Class string

// Classes.
const (
	ClassNone             Class = ""
	ClassTransient        Class = "transient"         // the error asked for a retry
	ClassPermanent        Class = "permanent"         // the error carries no retry intent, or is marked permanent
	ClassUndecodable      Class = "undecodable"       // the payload could not be decoded
	ClassLastDelivery     Class = "last_delivery"     // a transient failure on the last delivery the cap allows
	ClassMaxDeliveries    Class = "max_deliveries"    // delivered past the cap (crash, ack wait expiry): the handler is not run
	ClassRetriesExhausted Class = "retries_exhausted" // the backoff policy's attempt cap was reached
	ClassDeadLetterFailed Class = "dlq_failed"        // the DLQ write failed: redeliver to try again
	ClassShutdown         Class = "shutdown"          // the runner is stopping: release the message, or dead-letter it on the last delivery
	ClassAdvisory         Class = "max_deliveries_advisory"
	ClassSnooze           Class = "snooze"  // the handler snoozed the message (Snooze): redelivered later, not a failed attempt
	ClassMaxAge           Class = "max_age" // the message-age budget (WithMaxAge) ended before the next retry could start
)

// Budgets a retry can run out of (Budget.Ended, dlq.Entry.Budget).
const (
	BudgetAttempts   = "attempts"   // a class policy's attempt cap (ClassPolicy.MaxAttempts, or its Backoff's)
	BudgetGrace      = "grace"      // a class policy's grace window (ClassPolicy.Within)
	BudgetAge        = "age"        // the message-age budget (WithMaxAge)
	BudgetDeliveries = "deliveries" // the delivery cap (WithMaxDeliveries, the consumer's MaxDeliver)
	BudgetBackoff    = "backoff"    // the runner's backoff policy's attempt cap (WithBackoff)
)

// Defaults of Config.
const (
	DefaultMaxDeliveries        = 100
	DefaultPoisonThreshold      = 3
	DefaultPoisonDelay          = 5 * time.Second
	DefaultDeadLetterRetryDelay = 5 * time.Second
	DefaultMaxNakDelay          = 10 * time.Minute
	// MinNakDelay is the smallest delay sent for a positive requested delay
	// after BackOff compensation, so that a positive delay never becomes
	// an immediate redelivery.
	MinNakDelay = time.Millisecond
)

// Config is what Decide needs besides the delivery. NewRunner builds it from
// its options and the consumer's configuration. A zero field means its
// default, so that no Config, not even the zero one, can turn a failed DLQ
// write into a bare Nak.
type Config struct {
	// MaxDeliveries is the delivery cap: a transient failure on delivery
	// MaxDeliveries is dead-lettered, and a delivery past it is
	// dead-lettered without running the handler.
	MaxDeliveries uint64
	// PoisonThreshold is the delivery on which an undecodable payload is
	// dead-lettered; earlier deliveries are redelivered after PoisonDelay.
	PoisonThreshold uint64
	PoisonDelay     time.Duration
	// DeadLetterRetryDelay is the redelivery delay after a failed DLQ write.
	DeadLetterRetryDelay time.Duration
	// MaxNakDelay caps every redelivery delay: a message waiting for a
	// delayed redelivery holds one of the consumer's MaxAckPending slots.
	MaxNakDelay time.Duration
	// Backoff chooses the delay of transient errors that carry none.
	Backoff *retry.Policy
	// ConsumerBackOff is the consumer's BackOff list, if any (not to be
	// confused with Backoff, the policy). The server adds
	// BackOff[k-1]-BackOff[0] to a NakWithDelay sent on delivery k (measured
	// on nats-server 2.15); Decide subtracts it (see Decision.Delay).
	ConsumerBackOff []time.Duration
	// Unclassified decides the errors that carry no retry marker (see
	// retry.Unclassified): true retries one as a transient failure (the
	// backoff policy's delays, then the DLQ once it is exhausted), false
	// dead-letters it at once. Nil means WellKnownTransient;
	// UnclassifiedPermanent is the contract's own rule.
	Unclassified func(error) bool
	// Classes is the table of class policies (WithClassPolicies), consulted
	// in order before the error's retry marks.
	Classes []ClassPolicy
	// MaxAge is the message-age budget (WithMaxAge): no retry is scheduled
	// to start at or after the message's store time plus MaxAge. 0: none.
	MaxAge time.Duration
}

// WellKnownTransient is the default Config.Unclassified: of the errors
// without a retry marker, it takes as transient what a network, a database
// or NATS says when it is temporarily gone, so that a service moved onto
// the runner before its errors are audited does not dead-letter
// everything in flight during a DNS blip, a partition or a failover
// (Watermill, asynq and River retry every error by default):
//
//   - context.DeadlineExceeded: a deadline of the handler's own calls (an
//     HTTP client's timeout); the runner's handler timeout is a
//     *TimeoutError, transient anyway, and its shutdown a context.Canceled,
//     released anyway;
//   - a net.Error that is a timeout, and a *net.DNSError that is
//     temporary or a timeout (not "no such host");
//   - a connection refused, reset or aborted, a host or network
//     unreachable or down, a broken pipe, a connection timeout
//     (syscall.ECONNREFUSED, ECONNRESET, ECONNABORTED, EHOSTUNREACH,
//     ENETUNREACH, ENETDOWN, EPIPE, ETIMEDOUT);
//   - net.ErrClosed: a use of a connection closed under the call;
//   - io.ErrUnexpectedEOF, and io.EOF inside a *net.OpError or *url.Error:
//     a connection closed mid-response (a bare io.EOF is also what a
//     decoder says of an empty input, which a retry does not cure);
//   - driver.ErrBadConn: a database connection the pool must replace;
//   - nats.ErrTimeout, nats.ErrNoResponders and jetstream's
//     ErrNoStreamResponse: a request to a service or stream that is down.
//
// Every other unmarked error is permanent. The rule: an error says the
// other side is temporarily unreachable, not that the request is wrong.
func WellKnownTransient(err error) bool {
	var (
		ne  net.Error
		dns *net.DNSError
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout(),
		errors.As(err, &dns) && (dns.IsTemporary || dns.IsTimeout),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.ENETDOWN),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ETIMEDOUT),
		errors.Is(err, net.ErrClosed),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.EOF) && fromConnection(err),
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, nats.ErrTimeout), errors.Is(err, nats.ErrNoResponders),
		errors.Is(err, jetstream.ErrNoStreamResponse):
		return true
	}
	return false
}

// fromConnection reports whether err comes from a network call: its chain
// holds a *net.OpError or a *url.Error.
func fromConnection(err error) bool {
	var (
		op *net.OpError
		ue *url.Error
	)
	return errors.As(err, &op) || errors.As(err, &ue)
}

// UnclassifiedPermanent is the Config.Unclassified of the contract: an
// error without a retry marker is permanent, dead-lettered on its first
// delivery. It suits services whose handlers mark every transient failure
// (retrylint checks that they keep the marks).
func UnclassifiedPermanent(error) bool { return false }

// DefaultConfig returns the defaults: cap 100, poison threshold 3 with 5s
// delays, 5s after a failed DLQ write, delays capped at 10 minutes, the
// default backoff policy, no consumer BackOff.
func DefaultConfig() Config {
	return Config{
		MaxDeliveries:        DefaultMaxDeliveries,
		PoisonThreshold:      DefaultPoisonThreshold,
		PoisonDelay:          DefaultPoisonDelay,
		DeadLetterRetryDelay: DefaultDeadLetterRetryDelay,
		MaxNakDelay:          DefaultMaxNakDelay,
		Backoff:              retry.DefaultPolicy(),
		Unclassified:         WellKnownTransient,
	}
}

// cause returns the error that decides the delivery's fate.
func (in *Input) cause() error {
	if in.DecodeErr != nil {
		return in.DecodeErr
	}
	return in.Err
}

// Input is the outcome of one delivery.
type Input struct {
	// NumDelivered is the server's delivery count of the message
	// (MsgMetadata.NumDelivered), which the delivery cap counts. It never
	// comes from an in-process counter, which would restart with the
	// process. The attempt number, which the budgets count, is derived
	// from History; without a complete one it is NumDelivered.
	NumDelivered uint64
	// Ran reports that the handler ran on this delivery.
	Ran bool
	// Stopping reports that the runner is shutting down.
	Stopping bool
	// Draining reports that the runner is shutting down but still gives
	// running handlers time (Drain, or a canceled Run context, before the
	// drain timeout; not Stop).
	Draining bool
	// DecodeErr is set when the payload could not be decoded.
	DecodeErr error
	// Err is the handler's error.
	Err error
	// DeadLetterErr is set when the DLQ write of an ActionDeadLetter failed.
	DeadLetterErr error
	// History is what is known of the message's earlier deliveries: its
	// failed attempts, snoozes and the first failure of each class
	// (package ledger). It is taken as complete when HistoryExact is set
	// (or on the first delivery); otherwise every earlier delivery counts
	// as a failed attempt of any class, since the message was stored: the
	// server's own count, which can only end budgets early, never late.
	History      ledger.Record
	HistoryExact bool
	// Now is the time of the decision; time budgets are measured from it.
	// Zero means time.Now().
	Now time.Time
	// Stored is when the stream stored the message: the message-age budget
	// starts then. Zero: no age budget applies.
	Stored time.Time
}

// exact reports whether the history is complete.
func (in *Input) exact() bool { return in.HistoryExact || in.NumDelivered <= 1 }

// attempt returns the attempt number of the delivery: the failed attempts
// before it plus one.
func (in *Input) attempt() int {
	if in.exact() {
		return in.History.Attempts + 1
	}
	return int(min(in.NumDelivered, uint64(maxInt)))
}

// classHistory returns how many earlier attempts failed with class, and
// when the first did (zero: none, this is the first).
func (in *Input) classHistory(class string) (attempts int, first time.Time) {
	if in.exact() {
		c := in.History.Classes[class]
		return c.Attempts, c.First
	}
	return int(min(in.NumDelivered-1, uint64(maxInt))), in.Stored
}

// Budget is what is left of a message's retries at a decision: on spans,
// metrics and logs, and, for a dead letter, in the evidence.
type Budget struct {
	// Attempt is the attempt number of the delivery (see Attempt.Number).
	Attempt int
	// AttemptsLeft is how many more attempts the tightest attempt cap that
	// applies allows (the class policy's, the backoff policy's, the
	// delivery cap): 0 when the decision gives up.
	AttemptsLeft int
	// End is when the tightest time budget that applies ends (the class
	// policy's grace window, the message-age budget); zero when none does.
	End time.Time
	// Left is End minus the decision's time, at least 0; 0 without End,
	// and for a decision that gives up.
	Left time.Duration
	// Ended names the budget that ran out for a decision that gives up on
	// one (BudgetAttempts, BudgetGrace, BudgetAge, BudgetDeliveries,
	// BudgetBackoff); "" otherwise.
	Ended string
}

// Decision is what to do with a delivery.
type Decision struct {
	Action Action
	// Delay is the argument of NakWithDelay, after the cap and the BackOff
	// compensation. It is positive for ActionNakWithDelay and 0 otherwise.
	Delay time.Duration
	// Requested is the redelivery delay the decision aims for: the error's
	// delay (or the policy's) after the MaxNakDelay cap.
	Requested time.Duration
	// Class says why.
	Class Class
	// RetryDelay is the delay the error carried, if it carried one.
	RetryDelay time.Duration
	// Reason is a short human explanation for logs and evidence.
	Reason string
	// Budget is what is left of the message's retries; set for the
	// decisions that follow a failure or a snooze.
	Budget Budget
}

// Decide maps the outcome of one delivery onto a broker action. It is pure:
// the same input and config give the same decision, except for the jitter
// of the backoff policies (and time.Now when Input.Now is zero). In order:
//
//  1. a failed DLQ write: NakWithDelay(DeadLetterRetryDelay), never Term;
//  2. before the handler runs: dead-letter a delivery past MaxDeliveries
//     (ClassMaxDeliveries); when stopping, release (Nak) it, except on
//     delivery MaxDeliveries, where a release would come back past the
//     cap: handle it while draining, else dead-letter it (ClassShutdown);
//     else ActionHandle;
//  3. an undecodable payload: NakWithDelay(PoisonDelay) until delivery
//     PoisonThreshold (or the cap), then dead-letter;
//  4. success: Ack;
//  5. a handler interrupted by shutdown (context.Canceled while stopping):
//     release (Nak);
//  6. a snooze (Snooze): NakWithDelay of its delay, not a failed attempt;
//     dead-letter on the last delivery or past the message-age budget;
//  7. an error a class policy takes (Config.Classes, the first that
//     matches): its delay; the terminal action (dead-letter, or discard)
//     once the class's attempts or grace window end, a dead letter under
//     the class's name once the message-age budget or the delivery cap
//     ends;
//  8. a permanent error: dead-letter. An error is permanent when marked so,
//     or when it carries no retry marker and Config.Unclassified does not
//     take it as transient (by default WellKnownTransient takes what a
//     network, a database or NATS says when it is temporarily gone:
//     timeouts, temporary DNS failures, refused, reset or closed
//     connections, unreachable hosts, bad database connections, NATS
//     timeouts and no-responders; those continue as in 11);
//  9. a transient error on the last delivery (NumDelivered >= MaxDeliveries):
//     dead-letter (ClassLastDelivery);
//  10. a transient error that carries a positive delay d: NakWithDelay(d);
//  11. a transient error without a delay, or with a delay of 0 (a bare Nak
//     would redeliver at once, again and again): dead-letter when the
//     backoff policy is exhausted at this attempt, else NakWithDelay of the
//     policy's delay for the attempt.
//
// A retry whose start (now plus its delay) is at or past the message-age
// budget's end (Input.Stored + Config.MaxAge) is not scheduled: the message
// is dead-lettered (ClassMaxAge, or the class policy's class). Attempts are
// counted from Input.History (see Input.attempt): failed attempts only,
// not releases or snoozes.
//
// Every redelivery delay is capped at MaxNakDelay, then compensated for the
// consumer's BackOff stretch (floor MinNakDelay for a positive delay).
// Decide returns a bare Nak (ActionNak) only to release a message at
// shutdown.
func Decide(in Input, cfg *Config) Decision {
	c := cfg.withDefaults()
	return c.decide(in)
}

// defaultPolicy backs a Config without a Backoff. Policies are immutable.
var defaultPolicy = retry.DefaultPolicy()

// withDefaults returns cfg with every zero field set to its default.
func (cfg *Config) withDefaults() Config {
	c := *cfg
	if c.MaxDeliveries == 0 {
		c.MaxDeliveries = DefaultMaxDeliveries
	}
	if c.PoisonThreshold == 0 {
		c.PoisonThreshold = DefaultPoisonThreshold
	}
	if c.PoisonDelay <= 0 {
		c.PoisonDelay = DefaultPoisonDelay
	}
	if c.DeadLetterRetryDelay <= 0 {
		c.DeadLetterRetryDelay = DefaultDeadLetterRetryDelay
	}
	if c.MaxNakDelay <= 0 {
		c.MaxNakDelay = DefaultMaxNakDelay
	}
	if c.Backoff == nil {
		c.Backoff = defaultPolicy
	}
	if c.Unclassified == nil {
		c.Unclassified = WellKnownTransient
	}
	return c
}

func (cfg *Config) decide(in Input) Decision {
	n := in.NumDelivered
	switch {
	case in.DeadLetterErr != nil:
		return cfg.nak(n, cfg.DeadLetterRetryDelay, 0, ClassDeadLetterFailed, "dead-letter write failed")
	case !in.Ran && n > cfg.MaxDeliveries:
		return deadLetter(ClassMaxDeliveries, 0, fmt.Sprintf("delivered %d times, over the cap of %d", n, cfg.MaxDeliveries))
	case !in.Ran && in.Stopping && n == cfg.MaxDeliveries && in.Draining:
		// A release would come back past the cap: with drain time left,
		// the message is handled rather than dead-lettered unprocessed.
		return Decision{Action: ActionHandle}
	case !in.Ran && in.Stopping && n == cfg.MaxDeliveries:
		// A release would come back past the cap, or, on the server's
		// last delivery (MaxDeliver), never: the message is kept here.
		return deadLetter(ClassShutdown, 0, fmt.Sprintf("runner stopping on the last delivery (%d of %d)", n, cfg.MaxDeliveries))
	case !in.Ran && in.Stopping:
		return Decision{Action: ActionNak, Class: ClassShutdown, Reason: "runner stopping: released unprocessed"}
	case !in.Ran:
		return Decision{Action: ActionHandle}
	case in.DecodeErr != nil:
		b := cfg.budgets(&in)
		if n >= cfg.PoisonThreshold || n >= cfg.MaxDeliveries {
			return b.giveUp(deadLetter(ClassUndecodable, 0, fmt.Sprintf("payload undecodable on delivery %d", n)), "")
		}
		return b.retry(cfg.nak(n, cfg.PoisonDelay, 0, ClassUndecodable, "payload undecodable"), int(cfg.PoisonThreshold-n))
	case in.Err == nil:
		return Decision{Action: ActionAck}
	case in.Stopping && errors.Is(in.Err, context.Canceled) && n >= cfg.MaxDeliveries:
		return deadLetter(ClassShutdown, 0, fmt.Sprintf("handler interrupted by shutdown on the last delivery (%d of %d)", n, cfg.MaxDeliveries))
	case in.Stopping && errors.Is(in.Err, context.Canceled):
		return Decision{Action: ActionNak, Class: ClassShutdown, Reason: "handler interrupted by shutdown"}
	}
	b := cfg.budgets(&in)
	if sz := (*SnoozeError)(nil); errors.As(in.Err, &sz) {
		return cfg.snooze(&in, b, sz.Delay)
	}
	if p := cfg.match(in.Err); p != nil {
		return cfg.decideClass(&in, b, p)
	}
	c := retry.Classify(in.Err)
	transient := "transient error, policy delay"
	if c.Kind == retry.KindPermanent && retry.Unclassified(in.Err) {
		if !cfg.Unclassified(in.Err) {
			return b.giveUp(deadLetter(ClassPermanent, 0, "error without a retry marker, permanent"), "")
		}
		c, transient = retry.Classification{Kind: retry.KindTransient}, "error without a retry marker, taken as transient"
	}
	if c.Kind == retry.KindDelayed && c.Delay == 0 {
		// A bare Nak would bring the message straight back, and fail it
		// again: a tight loop up to the delivery cap. The policy paces it.
		c, transient = retry.Classification{Kind: retry.KindTransient}, "transient error asked for a retry at once; policy delay instead of a bare Nak"
	}
	switch {
	case c.Kind == retry.KindPermanent:
		return b.giveUp(deadLetter(ClassPermanent, 0, "permanent error"), "")
	case n >= cfg.MaxDeliveries:
		return b.giveUp(deadLetter(ClassLastDelivery, c.Delay, fmt.Sprintf("transient error on the last delivery (%d of %d)", n, cfg.MaxDeliveries)), BudgetDeliveries)
	case c.Kind == retry.KindDelayed:
		d := min(c.Delay, cfg.MaxNakDelay)
		if b.pastAge(d) {
			return b.giveUp(deadLetter(ClassMaxAge, c.Delay, b.ageReason(d)), BudgetAge)
		}
		return b.retry(cfg.nak(n, d, c.Delay, ClassTransient, "transient error"), -1)
	case cfg.Backoff.Exhausted(b.attempt):
		return b.giveUp(deadLetter(ClassRetriesExhausted, 0, fmt.Sprintf("backoff policy exhausted after %d attempts", b.attempt)), BudgetBackoff)
	}
	d := min(cfg.Backoff.Delay(b.attempt), cfg.MaxNakDelay)
	if b.pastAge(d) {
		return b.giveUp(deadLetter(ClassMaxAge, 0, b.ageReason(d)), BudgetAge)
	}
	return b.retry(cfg.nak(n, d, 0, ClassTransient, transient), cfg.Backoff.MaxAttempts()-b.attempt)
}

// snooze decides a snoozed delivery: redelivered after d (the policy's
// first delay for 0), not a failed attempt.
func (cfg *Config) snooze(in *Input, b budgets, d time.Duration) Decision {
	if d <= 0 {
		d = cfg.Backoff.Step(1)
	}
	d = min(d, cfg.MaxNakDelay)
	switch {
	case in.NumDelivered >= cfg.MaxDeliveries:
		return b.giveUp(deadLetter(ClassLastDelivery, 0, fmt.Sprintf("snoozed on the last delivery (%d of %d)", in.NumDelivered, cfg.MaxDeliveries)), BudgetDeliveries)
	case b.pastAge(d):
		return b.giveUp(deadLetter(ClassMaxAge, 0, "snoozed: "+b.ageReason(d)), BudgetAge)
	}
	return b.retry(cfg.nak(in.NumDelivered, d, 0, ClassSnooze, "snoozed by the handler (not a failed attempt)"), -1)
}

// decideClass decides a failure that the class policy p takes.
func (cfg *Config) decideClass(in *Input, b budgets, p *ClassPolicy) Decision {
	class := Class(p.Class)
	prior, first := in.classHistory(p.Class)
	k := prior + 1 // this attempt, of the class
	if first.IsZero() {
		first = b.now
	}
	carried, hasCarried := retry.RetryDelay(in.Err)
	d, own := p.delay(k)
	switch {
	case own:
	case hasCarried && carried > 0:
		d = carried
	default:
		d = cfg.Backoff.Delay(b.attempt)
	}
	d = min(d, cfg.MaxNakDelay)
	limit, classLeft := p.attemptCap(), -1
	if limit > 0 {
		classLeft = max(limit-k, 0)
	}
	var graceEnd time.Time
	if p.Within > 0 {
		graceEnd = first.Add(p.Within)
		b.end(graceEnd)
	}
	switch {
	case limit > 0 && k >= limit:
		return b.terminal(p, carried, fmt.Sprintf("%s: %d attempts failed with this class, its cap", p.Class, k), BudgetAttempts, time.Time{})
	case p.Within > 0 && !b.now.Add(d).Before(graceEnd):
		return b.terminal(p, carried, fmt.Sprintf("%s: still failing %v after its first failure (grace window %v, ended %s)",
			p.Class, b.now.Sub(first).Round(time.Millisecond), p.Within, graceEnd.UTC().Format(time.RFC3339Nano)), BudgetGrace, graceEnd)
	case b.pastAge(d):
		return b.giveUp(deadLetter(class, carried, p.Class+": "+b.ageReason(d)), BudgetAge)
	case in.NumDelivered >= cfg.MaxDeliveries:
		return b.giveUp(deadLetter(class, carried, fmt.Sprintf("%s: failed on the last delivery (%d of %d)", p.Class, in.NumDelivered, cfg.MaxDeliveries)), BudgetDeliveries)
	}
	return b.retry(cfg.nak(in.NumDelivered, d, carried, class, p.Class+": retry per class policy"), classLeft)
}

// budgets is what a failure decision measures against: the attempt, the
// time, and the budgets that apply to every class.
type budgets struct {
	attempt    int
	now        time.Time
	ageEnd     time.Time // zero: no message-age budget
	endAt      time.Time // the tightest time budget so far
	deliveries int       // deliveries left under the cap
}

func (cfg *Config) budgets(in *Input) budgets {
	b := budgets{
		attempt:    in.attempt(),
		now:        in.Now,
		deliveries: int(min(cfg.MaxDeliveries-min(in.NumDelivered, cfg.MaxDeliveries), uint64(maxInt))),
	}
	if b.now.IsZero() {
		b.now = time.Now()
	}
	if cfg.MaxAge > 0 && !in.Stored.IsZero() {
		b.ageEnd = in.Stored.Add(cfg.MaxAge)
		b.end(b.ageEnd)
	}
	return b
}

// end takes t as a time budget's end if it is the tightest so far.
func (b *budgets) end(t time.Time) {
	if b.endAt.IsZero() || t.Before(b.endAt) {
		b.endAt = t
	}
}

// pastAge reports whether a retry after d would start at or past the end of
// the message-age budget.
func (b *budgets) pastAge(d time.Duration) bool {
	return !b.ageEnd.IsZero() && !b.now.Add(d).Before(b.ageEnd)
}

func (b *budgets) ageReason(d time.Duration) string {
	return fmt.Sprintf("a retry in %v would start past the message-age budget (ended %s)", d, b.ageEnd.UTC().Format(time.RFC3339Nano))
}

// budget returns the Budget of a decision, with attemptsLeft under the
// caps of the decision's own (-1: none) and the delivery cap.
func (b *budgets) budget(attemptsLeft int) Budget {
	left := b.deliveries
	if attemptsLeft >= 0 {
		left = min(left, attemptsLeft)
	}
	bg := Budget{Attempt: b.attempt, AttemptsLeft: max(left, 0), End: b.endAt}
	if !b.endAt.IsZero() {
		bg.Left = max(b.endAt.Sub(b.now), 0)
	}
	return bg
}

// retry returns d, a redelivery, with the budget left.
func (b *budgets) retry(d Decision, attemptsLeft int) Decision {
	d.Budget = b.budget(attemptsLeft)
	return d
}

// giveUp returns d, a decision that ends the retries, with the budget that
// ran out ("" for a permanent error).
func (b *budgets) giveUp(d Decision, ended string) Decision {
	d.Budget = b.budget(0)
	d.Budget.AttemptsLeft, d.Budget.Left = 0, 0
	d.Budget.Ended = ended
	if ended == BudgetAge {
		d.Budget.End = b.ageEnd
		d.Budget.Left = 0
	}
	return d
}

// terminal applies p's terminal action once its own budget ended (the
// grace window at end).
func (b *budgets) terminal(p *ClassPolicy, carried time.Duration, reason, ended string, end time.Time) Decision {
	d := deadLetter(Class(p.Class), carried, reason)
	if p.Terminal == TerminalDiscard {
		d = Decision{Action: ActionAck, Class: Class(p.Class), RetryDelay: carried, Reason: reason + "; discarded (class policy)"}
	}
	d = b.giveUp(d, ended)
	if !end.IsZero() {
		d.Budget.End, d.Budget.Left = end, 0
	}
	return d
}

const maxInt = int(^uint(0) >> 1)

func deadLetter(c Class, carried time.Duration, reason string) Decision {
	return Decision{Action: ActionDeadLetter, Class: c, RetryDelay: carried, Reason: reason}
}

// nak returns a redelivery decision for delivery n that aims at delay d.
func (cfg *Config) nak(n uint64, d, carried time.Duration, c Class, reason string) Decision {
	d = min(max(d, 0), cfg.MaxNakDelay)
	send := Compensate(d, n, cfg.ConsumerBackOff)
	if send > 0 {
		return Decision{Action: ActionNakWithDelay, Delay: send, Requested: d, Class: c, RetryDelay: carried, Reason: reason}
	}
	return Decision{Action: ActionNak, Requested: 0, Class: c, RetryDelay: carried, Reason: reason}
}

// Compensate returns the delay to pass to NakWithDelay on delivery n so that
// the redelivery comes after d on a consumer with the given BackOff list.
//
// nats-server 2.15 records a NakWithDelay(x) as if the delivery had been sent
// at now-AckWait+x, and with a BackOff list AckWait is BackOff[0] while the
// deadline of delivery n is BackOff[min(n-1, len-1)]: the redelivery comes
// after x + BackOff[min(n-1, len-1)] - BackOff[0]. Compensate subtracts that
// stretch. When the stretch reaches d, it returns MinNakDelay: the
// redelivery then comes after the stretch, later than d but as close to it
// as the server allows, and never sooner. A delay of 0 stays 0 (a plain Nak
// is not stretched).
func Compensate(d time.Duration, n uint64, backOff []time.Duration) time.Duration {
	if d <= 0 || len(backOff) == 0 || n == 0 {
		return max(d, 0)
	}
	i := min(n-1, uint64(len(backOff)-1))
	stretch := backOff[i] - backOff[0]
	if stretch <= 0 {
		return d
	}
	return max(d-stretch, MinNakDelay)
}
