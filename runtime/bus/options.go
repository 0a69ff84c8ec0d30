package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/retry"
)

// ErrInvalidOption is wrapped by every error an Option returns.
var ErrInvalidOption = errors.New("bus: invalid option")

// Runner defaults besides those of Config.
const (
	// DefaultAckWait is the ack wait ConsumerConfig sets. Long handlers are
	// kept alive with InProgress heartbeats at a third of the ack wait, so
	// it need not cover the longest handler; it is what a lost
	// acknowledgement costs (acks are not confirmed: one lost in a
	// reconnect leaves the message pending until the ack wait expires).
	DefaultAckWait = time.Minute
	// DefaultConcurrency is how many handler calls run at once. It is more
	// than one so that a handler call that hangs (until the handler
	// timeout, or for good when deaf to its context) does not stop the
	// consumer: the other workers keep taking messages meanwhile, and an
	// abandoned call's worker is replaced. Handlers must be safe for
	// concurrent use; WithConcurrency(1) handles one message at a time.
	DefaultConcurrency       = 4
	DefaultPullMaxMessages   = 100
	DefaultDeadLetterTimeout = 5 * time.Second
	DefaultDrainTimeout      = 30 * time.Second
	// DefaultHandlerTimeout bounds one handler call. Heartbeats keep a
	// message alive while its handler runs, so without a bound a handler
	// that never returns would hold a worker and a MaxAckPending slot
	// forever.
	DefaultHandlerTimeout = 5 * time.Minute
	// HandlerTimeoutGrace is how long the runner waits, after a handler's
	// context is canceled (timeout or shutdown), for the call to return
	// before it abandons the call and settles the message itself. It is
	// capped by the timeout.
	HandlerTimeoutGrace = time.Second
)

// BackOffMode says what NewRunner does with a consumer that has a BackOff
// list, which makes the server stretch NakWithDelay.
type BackOffMode int

const (
	// BackOffCompensate (the default) subtracts the server's stretch from
	// every NakWithDelay, so the redelivery comes after the requested delay
	// (see Compensate).
	BackOffCompensate BackOffMode = iota
	// BackOffRefuse makes NewRunner fail with ErrConsumerBackOff.
	BackOffRefuse
)

// Event describes what the runner did with one delivery. Observers receive
// one per delivery, synchronously: they must be fast (count, time, export).
type Event struct {
	Stream, Consumer, Subject string
	StreamSeq, NumDelivered   uint64
	Decision                  Decision
	Err                       error         // the handler's or decoder's error
	DeadLetterErr             error         // a failed DLQ write
	AckErr                    error         // the error of the Ack, Nak, NakWithDelay or Term call (or of its confirmation)
	Confirmed                 bool          // the server answered the Ack or Term (WithConfirmedSettlement)
	HandlerTime               time.Duration // how long the handler ran; 0 if it did not run
}

// Option configures a Runner. It returns an error wrapping ErrInvalidOption
// when its argument is out of range.
type Option func(*Runner) error

func positive(name string, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("%w: %s %v must be positive", ErrInvalidOption, name, d)
	}
	return nil
}

// WithName sets the handler name recorded in the evidence and logs
// (default: the consumer name).
func WithName(name string) Option {
	return func(r *Runner) error {
		r.name = name
		return nil
	}
}

// WithMaxDeliveries sets the delivery cap (default 100). The runner uses the
// smaller of it and the consumer's MaxDeliver. It counts deliveries,
// snoozes and releases included: it bounds a message that never concludes
// (crashes, ack waits), while the backoff policy and class policies count
// attempts. A consumer with MaxDeliver -1
// and the runner's cap is the safest setup: a failed DLQ write on the last
// delivery can then always be retried by redelivery.
func WithMaxDeliveries(n int) Option {
	return func(r *Runner) error {
		if n < 1 {
			return fmt.Errorf("%w: max deliveries %d must be at least 1", ErrInvalidOption, n)
		}
		r.cfg.MaxDeliveries = uint64(n)
		return nil
	}
}

// WithPoisonThreshold sets the delivery on which an undecodable payload is
// dead-lettered (default 3).
func WithPoisonThreshold(n int) Option {
	return func(r *Runner) error {
		if n < 1 {
			return fmt.Errorf("%w: poison threshold %d must be at least 1", ErrInvalidOption, n)
		}
		r.cfg.PoisonThreshold = uint64(n)
		return nil
	}
}

// WithPoisonDelay sets the redelivery delay of an undecodable payload
// (default 5s).
func WithPoisonDelay(d time.Duration) Option {
	return func(r *Runner) error {
		r.cfg.PoisonDelay = d
		return positive("poison delay", d)
	}
}

// WithDeadLetterRetryDelay sets the redelivery delay after a failed DLQ
// write (default 5s); it doubles with each further failed write of the
// same message, up to the max nak delay.
func WithDeadLetterRetryDelay(d time.Duration) Option {
	return func(r *Runner) error {
		r.cfg.DeadLetterRetryDelay = d
		return positive("dead-letter retry delay", d)
	}
}

// WithDeadLetterTimeout bounds each DLQ write (default 5s).
func WithDeadLetterTimeout(d time.Duration) Option {
	return func(r *Runner) error {
		r.dlqTimeout = d
		return positive("dead-letter timeout", d)
	}
}

// WithMaxNakDelay caps every redelivery delay (default 10 minutes): a
// message waiting for a delayed redelivery holds one of the consumer's
// MaxAckPending slots, so a few long delays can stall the consumer.
func WithMaxNakDelay(d time.Duration) Option {
	return func(r *Runner) error {
		r.cfg.MaxNakDelay = d
		return positive("max nak delay", d)
	}
}

// WithBackoff sets the policy that chooses the delay of transient errors
// that carry none (default retry.DefaultPolicy: 1s to 30s, 50 attempts),
// from the attempt number (failed attempts, not deliveries; see
// AttemptFromContext), and caps their attempts.
func WithBackoff(p *retry.Policy) Option {
	return func(r *Runner) error {
		if p == nil {
			return fmt.Errorf("%w: nil backoff policy", ErrInvalidOption)
		}
		r.cfg.Backoff = p
		return nil
	}
}

// WithBackOffMode sets what to do with a consumer BackOff list (default
// BackOffCompensate).
func WithBackOffMode(m BackOffMode) Option {
	return func(r *Runner) error {
		if m != BackOffCompensate && m != BackOffRefuse {
			return fmt.Errorf("%w: backoff mode %d", ErrInvalidOption, m)
		}
		r.backOffMode = m
		return nil
	}
}

// WithOutagePause makes the runner stop taking deliveries, for a while,
// after n DLQ writes in a row fail (OutagePauseAfter, 3, is a fair n): a
// breaker that trades the traffic of every message for fewer refused
// writes during a DLQ outage. The pause starts at the dead-letter retry
// delay and doubles per further failure, up to the heartbeat interval. It
// is off by default: then a DLQ outage parks only the messages that need
// the DLQ (each comes back after a delay that doubles per failed write),
// and every other message is handled as usual.
func WithOutagePause(n int) Option {
	return func(r *Runner) error {
		if n < 1 {
			return fmt.Errorf("%w: outage pause after %d failures must be at least 1", ErrInvalidOption, n)
		}
		r.outage.after = n
		return nil
	}
}

// WithConcurrency sets how many messages are handled at once (default
// DefaultConcurrency, 4). Each runs on a worker of its own: with 1 too, a
// call deaf to its canceled context is abandoned after the handler
// timeout and its worker replaced.
func WithConcurrency(n int) Option {
	return func(r *Runner) error {
		if n < 1 {
			return fmt.Errorf("%w: concurrency %d must be at least 1", ErrInvalidOption, n)
		}
		r.concurrency = n
		return nil
	}
}

// WithPullMaxMessages sets how many messages the runner holds at most
// besides those its workers run (default 100): it pulls up to half of
// them at a time, and stops pulling while the other half waits for a
// worker. Held messages are already delivered, and their ack wait runs
// while they wait: heartbeats keep them alive, as they keep the running
// ones, so a slow handler does not have the server deliver the messages
// behind it again. A smaller buffer leaves more messages to the other
// instances of the consumer.
func WithPullMaxMessages(n int) Option {
	return func(r *Runner) error {
		if n < 1 {
			return fmt.Errorf("%w: pull max messages %d must be at least 1", ErrInvalidOption, n)
		}
		r.pullMax = n
		return nil
	}
}

// WithHeartbeat sets the interval of InProgress heartbeats sent while a
// handler runs (default: a third of the consumer's ack wait, or of its
// smallest BackOff step).
func WithHeartbeat(d time.Duration) Option {
	return func(r *Runner) error {
		r.heartbeat = d
		return positive("heartbeat", d)
	}
}

// WithDrainTimeout bounds how long Run waits at shutdown for running
// handlers before it cancels their context (default 30s).
func WithDrainTimeout(d time.Duration) Option {
	return func(r *Runner) error {
		r.drainTimeout = d
		return positive("drain timeout", d)
	}
}

// WithHandlerTimeout bounds one handler call (default 5 minutes). When it
// passes, the handler's context is canceled (with DeadlineExceeded, within
// one tick of the runner's watch loop: at most a quarter of the timeout or
// half the heartbeat interval; its Deadline is the timeout), and the
// message is settled as
// a transient failure (*TimeoutError): redelivered after the backoff
// policy's delay, or dead-lettered on the cap. A call that has not returned
// within HandlerTimeoutGrace after that is abandoned: its worker settles
// the message and goes back to work, and Run names the call at exit if it
// still runs.
func WithHandlerTimeout(d time.Duration) Option {
	return func(r *Runner) error {
		r.handlerTimeout = d
		return positive("handler timeout", d)
	}
}

// WithLogger sets the logger (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(r *Runner) error {
		if l == nil {
			return fmt.Errorf("%w: nil logger", ErrInvalidOption)
		}
		r.log = l
		return nil
	}
}

// WithObserver sets a hook called after every delivery, for metrics.
func WithObserver(f func(Event)) Option {
	return func(r *Runner) error {
		if f == nil {
			return fmt.Errorf("%w: nil observer", ErrInvalidOption)
		}
		r.observe = f
		return nil
	}
}

// WithAdvisories makes Run also listen to the server's MAX_DELIVERIES
// advisories for the consumer and dead-letter, by stream sequence, the
// messages whose last delivery the runner never saw fail: the ack wait
// expired on the last delivery, or a worker crashed during it. Advisories
// are sent once, to whoever listens at the time, so this is a safety net,
// not the main path: the runner dead-letters every failure it sees itself.
// It only matters for consumers with a finite MaxDeliver.
func WithAdvisories(js jetstream.JetStream) Option {
	return func(r *Runner) error {
		if js == nil {
			return fmt.Errorf("%w: nil JetStream for advisories", ErrInvalidOption)
		}
		r.js = js
		return nil
	}
}

// ConsumerConfig returns the recommended configuration of a durable pull
// consumer for a Runner: explicit acks, a one-minute ack wait
// (DefaultAckWait; heartbeats keep long handlers alive), and no
// MaxDeliver (the runner's cap applies), so that every failure the runner
// sees can be retried or dead-lettered by redelivery. It filters on the
// given subjects, if any.
func ConsumerConfig(durable string, filters ...string) jetstream.ConsumerConfig {
	cfg := jetstream.ConsumerConfig{
		Durable:    durable,
		AckPolicy:  jetstream.AckExplicitPolicy,
		AckWait:    DefaultAckWait,
		MaxDeliver: -1,
	}
	switch len(filters) {
	case 0:
	case 1:
		cfg.FilterSubject = filters[0]
	default:
		cfg.FilterSubjects = append([]string(nil), filters...)
	}
	return cfg
}

// WithConfirmedSettlement makes the server answer every Ack and Term once
// it has applied it (what jetstream's DoubleAck waits for), instead of a
// fire-and-forget publish that nats.go buffers during a reconnect and may
// lose. The answer is awaited off the worker, and the delivery's Event is
// reported once it is in: Confirmed is set, or AckErr says why not (the
// server will then redeliver after the ack wait, and the DLQ's
// deduplication keeps a redelivered dead letter from being written
// twice). An Ack unanswered after DefaultConfirmTimeout is sent again,
// three times in all while the client is connected (a Term is not: the
// server announces every Term it gets); every Ack and Term still waiting
// is sent again after a reconnect (but those nats.go buffered during the
// disconnect, which the reconnect sends), and none times out while the
// client is disconnected, so one that lands after a reconnect is reported
// confirmed. js's connection carries the acknowledgements and the
// one subscription their answers come in on. Naks stay fire-and-forget: a
// lost Nak only redelivers after the ack wait. Run returns once every
// confirmation is in, or one confirm timeout after it stopped.
func WithConfirmedSettlement(js jetstream.JetStream) Option {
	return func(r *Runner) error {
		if js == nil {
			return fmt.Errorf("%w: nil JetStream for confirmed settlement", ErrInvalidOption)
		}
		r.confirmJS = js
		return nil
	}
}

// WithUnclassified sets what becomes of an error without a retry marker
// (Config.Unclassified): f reports whether it is transient. The default,
// WellKnownTransient, retries with the backoff policy's delays what a
// network, a database or NATS says when it is temporarily gone (timeouts,
// temporary DNS failures, refused, reset or closed connections,
// unreachable hosts, bad database connections, NATS no-responders);
// WithUnclassified(UnclassifiedPermanent) dead-letters every unmarked
// error on its first delivery, as the contract says.
func WithUnclassified(f func(error) bool) Option {
	return func(r *Runner) error {
		if f == nil {
			return fmt.Errorf("%w: nil Unclassified", ErrInvalidOption)
		}
		r.cfg.Unclassified = f
		return nil
	}
}

// Heartbeat is an InProgress the runner sent for a message whose handler
// runs long, and its result.
type Heartbeat struct {
	Stream, Consumer, Subject string
	StreamSeq                 uint64
	Err                       error // the InProgress call's error
}

// WithHeartbeatObserver calls f after each heartbeat, from the runner's
// watch loop: it must be fast.
func WithHeartbeatObserver(f func(Heartbeat)) Option {
	return func(r *Runner) error {
		if f == nil {
			return fmt.Errorf("%w: nil heartbeat observer", ErrInvalidOption)
		}
		r.onHeartbeat = f
		return nil
	}
}

// Ledger keeps each message's retry record (package ledger) where every
// instance of the consumer reads it, and after a restart. *ledger.Store
// implements it.
type Ledger interface {
	// Load returns the record of k; found is false, with a nil error,
	// when there is none.
	Load(ctx context.Context, k ledger.Key) (r ledger.Record, found bool, err error)
	// Save stores r as the record of k, returning once it is stored.
	Save(ctx context.Context, k ledger.Key, r ledger.Record) error
	// Delete removes the record of k.
	Delete(ctx context.Context, k ledger.Key) error
}

// WithLedger keeps the retry record of every message that fails or is
// snoozed in l, read on each redelivery, so that attempts (not
// deliveries), the first failure of each class (grace windows), the
// handler's last error (for a dead letter written on a later delivery)
// and a dead-letter verdict whose DLQ write failed survive a restart and
// reach every instance of the consumer. A record is written before the
// redelivery is asked for, read on deliveries after the first, and deleted
// once the message is acked or dead-lettered: a message that never fails
// costs nothing.
//
// Without a ledger the runner keeps the records in memory, and counts the
// deliveries it did not see (on another instance, before a restart) as
// failed attempts from the message's store time: budgets can then end
// early, never late. If the ledger cannot be read, the runner does the
// same for that delivery; if a record cannot be written, the delivery
// still goes on (a lost record only counts fewer attempts, up to the
// delivery cap).
func WithLedger(l Ledger) Option {
	return func(r *Runner) error {
		if l == nil {
			return fmt.Errorf("%w: nil ledger", ErrInvalidOption)
		}
		r.ledger = l
		return nil
	}
}

// WithMaxAge sets the message-age budget: no retry is scheduled to start
// at or after the message's store time (the stream's timestamp, which
// every instance reads) plus d. A failure whose retry would start later is
// dead-lettered with class max_age (or its class policy's class), and the
// entry's evidence holds the budget's end (dlq.Entry.BudgetEnd). It bounds
// what retries may spend, as a run deadline does, whatever the attempt
// counts say. The handler reads the end from AttemptFromContext. 0 (the
// default) is no budget.
func WithMaxAge(d time.Duration) Option {
	return func(r *Runner) error {
		r.cfg.MaxAge = d
		return positive("max age", d)
	}
}
