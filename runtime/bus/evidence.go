package bus

import (
	"errors"
	"maps"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// maxRemembered bounds the first-failure times a runner keeps.
const maxRemembered = 1 << 14

// failures remembers when this process first saw each message fail, for the
// evidence. It is best effort: it starts empty after a restart, and it
// forgets entries at random once it holds maxRemembered of them.
type failures struct {
	mu    sync.Mutex
	first map[uint64]time.Time // stream sequence → first failure
}

func (f *failures) record(seq uint64, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first == nil {
		f.first = make(map[uint64]time.Time)
	}
	if _, ok := f.first[seq]; ok {
		return
	}
	if len(f.first) >= maxRemembered {
		n := 0
		maps.DeleteFunc(f.first, func(uint64, time.Time) bool { n++; return n%2 == 0 })
	}
	f.first[seq] = now
}

// firstOr returns the remembered first failure of seq, or now.
func (f *failures) firstOr(seq uint64, now time.Time) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t, ok := f.first[seq]; ok {
		return t
	}
	return now
}

func (f *failures) forget(seq uint64) {
	f.mu.Lock()
	delete(f.first, seq)
	f.mu.Unlock()
}

// evidence builds the DLQ entry of a dead-lettered delivery.
func (r *Runner) evidence(m jetstream.Msg, md *jetstream.MsgMetadata, in Input, d Decision, now time.Time) *dlq.Entry {
	cause := in.cause()
	e := &dlq.Entry{
		Subject:      m.Subject(),
		Stream:       md.Stream,
		Consumer:     md.Consumer,
		StreamSeq:    md.Sequence.Stream,
		ConsumerSeq:  md.Sequence.Consumer,
		Stored:       md.Timestamp,
		Deliveries:   md.NumDelivered,
		FirstFailure: r.fails.firstOr(md.Sequence.Stream, now),
		LastFailure:  now,
		Class:        string(d.Class),
		Handler:      r.name,
		Header:       m.Headers(),
		Data:         m.Data(),
	}
	if rd, ok := retry.RetryDelay(cause); ok {
		e.RetryDelay = rd
	}
	switch {
	case cause != nil:
		e.Error = cause.Error()
		e.ErrorTypes = retry.TypeNames(cause)
		if pe := (*PanicError)(nil); errors.As(cause, &pe) {
			e.Error += "\n" + string(pe.Stack)
		}
	default:
		e.Error = d.Reason
	}
	return e
}

// verdict is a dead letter whose DLQ write failed: on the message's next
// delivery to this runner, the write is retried without running the
// handler again (during a DLQ outage, handlers would otherwise re-run for
// every candidate every few seconds).
type verdict struct {
	decision Decision
	entry    *dlq.Entry
	cause    error
	failures int // failed writes of this entry in a row
}

// retryDelay is the redelivery delay after the verdict's last failed
// write: it doubles with each, from the dead-letter retry delay, so that a
// long DLQ outage does not bring every candidate back every few seconds.
func (v verdict) retryDelay(base time.Duration) time.Duration {
	return base << min(v.failures-1, 16)
}

// verdicts are the verdicts kept by stream sequence, bounded like failures.
type verdicts struct {
	mu sync.Mutex
	m  map[uint64]verdict
}

func (v *verdicts) keep(seq uint64, vd verdict) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = make(map[uint64]verdict)
	}
	if len(v.m) >= maxRemembered {
		n := 0
		maps.DeleteFunc(v.m, func(uint64, verdict) bool { n++; return n%2 == 0 })
	}
	v.m[seq] = vd
}

func (v *verdicts) take(seq uint64) (verdict, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vd, ok := v.m[seq]
	delete(v.m, seq)
	return vd, ok
}
