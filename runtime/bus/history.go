package bus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/retry"
)

// ledgerTimeout bounds each read or write of the retry ledger: a ledger
// that does not answer must not hold deliveries much longer than a
// failure already does.
const ledgerTimeout = 2 * time.Second

// key returns the ledger key of the message at seq stored at stored.
func (r *Runner) key(seq uint64, stored int64) ledger.Key {
	k := ledger.Key{Stream: r.stream, Consumer: r.consumer, Seq: seq}
	if stored != 0 {
		k.Stored = time.Unix(0, stored)
	}
	return k
}

// history returns what is known of the earlier deliveries of the message
// at seq, on its delivery n, and whether it is all of them: the ledger's
// record when it answers (a missing record is a message that never
// failed), else this process's, which is complete only if it saw every
// earlier delivery.
func (r *Runner) history(seq uint64, stored int64, n uint64) (ledger.Record, bool) {
	if n <= 1 {
		return ledger.Record{}, true
	}
	mem, inMem := r.fails.get(seq, stored)
	if r.ledger != nil {
		ctx, cancel := context.WithTimeout(r.hctx, ledgerTimeout)
		rec, found, err := r.ledger.Load(ctx, r.key(seq, stored))
		cancel()
		switch {
		case err == nil && found && inMem && mem.Seen > rec.Seen:
			return mem, true // a save of this process's did not land
		case err == nil && found:
			return rec, true
		case err == nil && inMem:
			return mem, true
		case err == nil:
			return ledger.Record{}, true
		}
		r.log.Warn("bus: retry ledger unreadable; earlier deliveries count as failed attempts", "seq", seq, "delivered", n, "err", err)
	}
	return mem, inMem && mem.Seen >= n-1
}

// record records the failed attempt, or the snooze, that d answers, in
// memory and in the ledger, before the redelivery is asked for.
func (r *Runner) record(md *jetstream.MsgMetadata, in Input, d Decision) {
	rec := in.History
	now := in.Now
	if now.IsZero() {
		now = r.now()
	}
	if d.Class == ClassSnooze {
		rec = rec.Snoozed(md.NumDelivered)
	} else {
		cause := in.cause()
		rec = rec.Failed(string(d.Class), now, md.NumDelivered, cause.Error(), retry.TypeNames(cause))
	}
	r.save(md, rec, in.exact())
}

// recordVerdict records a dead letter whose DLQ write failed, so that the
// next delivery, on any instance, writes it without running the handler.
func (r *Runner) recordVerdict(md *jetstream.MsgMetadata, in Input, v verdict) {
	if r.ledger == nil {
		return // the verdicts kept in memory do
	}
	rec := in.History
	if !v.retried && in.Ran && v.cause != nil {
		rec = rec.Failed(string(v.decision.Class), v.entry.LastFailure, md.NumDelivered, v.entry.Error, v.entry.ErrorTypes)
	}
	rec.Verdict, rec.VerdictReason = string(v.decision.Class), v.decision.Reason
	if rec.LastError == "" {
		rec.LastError, rec.LastErrorTypes = v.entry.Error, v.entry.ErrorTypes
	}
	r.save(md, rec, in.exact())
}

// save keeps rec in memory and, when rec extends what the ledger said
// (exact), in the ledger. A record built on a ledger that could not be
// read would overwrite a longer one there: it stays in memory.
func (r *Runner) save(md *jetstream.MsgMetadata, rec ledger.Record, exact bool) {
	stored := md.Timestamp.UnixNano()
	r.fails.put(md.Sequence.Stream, stored, rec)
	if r.ledger == nil || !exact {
		return
	}
	ctx, cancel := context.WithTimeout(r.hctx, ledgerTimeout)
	defer cancel()
	if err := r.ledger.Save(ctx, r.key(md.Sequence.Stream, stored), rec); err != nil {
		r.log.Warn("bus: retry ledger write failed; the record is kept in this process only", "seq", md.Sequence.Stream, "err", err)
	}
}

// recordedVerdict rebuilds, from the history, a dead letter whose DLQ
// write failed on an earlier delivery.
func (r *Runner) recordedVerdict(in Input) verdict {
	return verdict{
		decision: Decision{Action: ActionDeadLetter, Class: Class(in.History.Verdict), Reason: in.History.VerdictReason,
			Budget: Budget{Attempt: in.History.Attempts}},
		cause: &recordedError{text: in.History.LastError, types: in.History.LastErrorTypes},
	}
}

// forget drops the record of a message settled for good (acked, or
// dead-lettered and terminated): in memory, and in the ledger when the
// message may have one (it was delivered before).
func (r *Runner) forget(seq uint64, stored int64, n uint64) {
	if n <= 1 {
		return
	}
	r.fails.forget(seq)
	if r.ledger == nil || stored == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(r.hctx, ledgerTimeout)
	defer cancel()
	if err := r.ledger.Delete(ctx, r.key(seq, stored)); err != nil {
		r.log.Debug("bus: retry ledger delete failed; the record expires with the bucket's TTL", "seq", seq, "err", err)
	}
}
