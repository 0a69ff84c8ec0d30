package bus

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/retry"
)

// maxRemembered bounds the records a runner keeps in memory.
const maxRemembered = 1 << 14

// failures is this process's memory of the messages it saw fail or
// snooze: their retry records (package ledger), by stream sequence. It
// serves a runner without a Ledger, and one whose Ledger is unavailable or
// lost a write. It starts empty after a restart, and it forgets entries at
// random once it holds maxRemembered of them.
type failures struct {
	mu sync.Mutex
	m  map[uint64]memRecord // stream sequence → record
}

type memRecord struct {
	stored int64 // the message's store time, unix ns: a record applies to one message
	rec    ledger.Record
}

// put keeps rec as the record of the message at seq stored at stored.
func (f *failures) put(seq uint64, stored int64, rec ledger.Record) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = make(map[uint64]memRecord)
	}
	if _, ok := f.m[seq]; !ok && len(f.m) >= maxRemembered {
		n := 0
		maps.DeleteFunc(f.m, func(uint64, memRecord) bool { n++; return n%2 == 0 })
	}
	f.m[seq] = memRecord{stored, rec}
}

// get returns the record of the message at seq stored at stored.
func (f *failures) get(seq uint64, stored int64) (ledger.Record, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.m[seq]
	if !ok || stored != 0 && m.stored != 0 && m.stored != stored {
		return ledger.Record{}, false
	}
	return m.rec, true
}

// firstOr returns the remembered first failure of seq, or now.
func (f *failures) firstOr(seq uint64, now time.Time) time.Time {
	if rec, ok := f.get(seq, 0); ok && !rec.FirstFailure.IsZero() {
		return rec.FirstFailure
	}
	return now
}

func (f *failures) forget(seq uint64) {
	f.mu.Lock()
	delete(f.m, seq)
	f.mu.Unlock()
}

// evidence builds the DLQ entry of a dead-lettered delivery.
func (r *Runner) evidence(m jetstream.Msg, md *jetstream.MsgMetadata, in Input, d Decision, now time.Time) *dlq.Entry {
	cause := in.cause()
	first := in.History.FirstFailure
	if first.IsZero() {
		first = r.fails.firstOr(md.Sequence.Stream, now)
	}
	e := &dlq.Entry{
		Subject:      m.Subject(),
		Stream:       md.Stream,
		Consumer:     md.Consumer,
		StreamSeq:    md.Sequence.Stream,
		ConsumerSeq:  md.Sequence.Consumer,
		Stored:       md.Timestamp,
		Deliveries:   md.NumDelivered,
		Attempts:     uint64(max(d.Budget.Attempt, 0)),
		Budget:       d.Budget.Ended,
		FirstFailure: first,
		LastFailure:  now,
		Class:        string(d.Class),
		Handler:      r.name,
		Header:       m.Headers(),
		Data:         m.Data(),
	}
	if d.Budget.Ended == BudgetAge || d.Budget.Ended == BudgetGrace {
		e.BudgetEnd = d.Budget.End
	}
	if rd, ok := retry.RetryDelay(cause); ok {
		e.RetryDelay = rd
	}
	var re *recordedError
	switch {
	case errors.As(cause, &re):
		// A verdict or an error text from the ledger: the handler's own
		// words, from an earlier delivery.
		e.Error, e.ErrorTypes = re.Error(), slices.Clone(re.types)
	case cause != nil:
		e.Error = cause.Error()
		e.ErrorTypes = retry.TypeNames(cause)
		if pe := (*PanicError)(nil); errors.As(cause, &pe) {
			e.Error += "\n" + string(pe.Stack)
		}
	case in.History.LastError != "":
		// Dead-lettered without running the handler (past the cap, the
		// server's spare delivery): say what the handler said last.
		e.Error = d.Reason + "; the handler's last error: " + in.History.LastError
		e.ErrorTypes = slices.Clone(in.History.LastErrorTypes)
	default:
		e.Error = d.Reason
	}
	return e
}

// recordedError is a handler's error known only from its record (package
// ledger): its text and type names.
type recordedError struct {
	text  string
	types []string
}

func (e *recordedError) Error() string { return e.text }

// verdict is a dead letter whose DLQ write failed: on the message's next
// delivery to this runner, the write is retried without running the
// handler again (during a DLQ outage, handlers would otherwise re-run for
// every candidate every few seconds).
type verdict struct {
	decision Decision
	entry    *dlq.Entry
	cause    error
	failures int  // failed writes of this entry in a row
	retried  bool // written again on a later delivery: its failure is recorded already
	handback bool // carried by a handed-back copy (see HandBacker), which holds it: not recorded
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
