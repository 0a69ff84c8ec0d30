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
	// (MsgMetadata.NumDelivered): the attempt number. It never comes from an
	// in-process counter, which would restart with the process.
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
}

// Decide maps the outcome of one delivery onto a broker action. It is pure:
// the same input and config give the same decision, except for the jitter
// of Config.Backoff. In order:
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
//  6. a permanent error: dead-letter. An error is permanent when marked so,
//     or when it carries no retry marker and Config.Unclassified does not
//     take it as transient (by default WellKnownTransient takes what a
//     network, a database or NATS says when it is temporarily gone:
//     timeouts, temporary DNS failures, refused, reset or closed
//     connections, unreachable hosts, bad database connections, NATS
//     timeouts and no-responders; those continue as in 9);
//  7. a transient error on the last delivery (NumDelivered >= MaxDeliveries):
//     dead-letter (ClassLastDelivery);
//  8. a transient error that carries a delay d: NakWithDelay(d), or Nak when
//     d is exactly 0;
//  9. a transient error without a delay: dead-letter when the backoff
//     policy is exhausted at this attempt, else NakWithDelay of the policy's
//     delay for attempt NumDelivered.
//
// Every redelivery delay is capped at MaxNakDelay, then compensated for the
// consumer's BackOff stretch (floor MinNakDelay for a positive delay).
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
		if n >= cfg.PoisonThreshold || n >= cfg.MaxDeliveries {
			return deadLetter(ClassUndecodable, 0, fmt.Sprintf("payload undecodable on delivery %d", n))
		}
		return cfg.nak(n, cfg.PoisonDelay, 0, ClassUndecodable, "payload undecodable")
	case in.Err == nil:
		return Decision{Action: ActionAck}
	case in.Stopping && errors.Is(in.Err, context.Canceled) && n >= cfg.MaxDeliveries:
		return deadLetter(ClassShutdown, 0, fmt.Sprintf("handler interrupted by shutdown on the last delivery (%d of %d)", n, cfg.MaxDeliveries))
	case in.Stopping && errors.Is(in.Err, context.Canceled):
		return Decision{Action: ActionNak, Class: ClassShutdown, Reason: "handler interrupted by shutdown"}
	}
	c := retry.Classify(in.Err)
	transient := "transient error, policy delay"
	if c.Kind == retry.KindPermanent && retry.Unclassified(in.Err) {
		if !cfg.Unclassified(in.Err) {
			return deadLetter(ClassPermanent, 0, "error without a retry marker, permanent")
		}
		c, transient = retry.Classification{Kind: retry.KindTransient}, "error without a retry marker, taken as transient"
	}
	switch {
	case c.Kind == retry.KindPermanent:
		return deadLetter(ClassPermanent, 0, "permanent error")
	case n >= cfg.MaxDeliveries:
		return deadLetter(ClassLastDelivery, c.Delay, fmt.Sprintf("transient error on the last delivery (%d of %d)", n, cfg.MaxDeliveries))
	case c.Kind == retry.KindDelayed:
		return cfg.nak(n, c.Delay, c.Delay, ClassTransient, "transient error")
	case cfg.Backoff.Exhausted(int(min(n, uint64(maxInt)))):
		return deadLetter(ClassRetriesExhausted, 0, fmt.Sprintf("backoff policy exhausted after %d attempts", n))
	default:
		return cfg.nak(n, cfg.Backoff.Delay(int(min(n, uint64(maxInt)))), 0, ClassTransient, transient)
	}
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
