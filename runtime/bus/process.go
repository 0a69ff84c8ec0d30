package bus

import (
	"context"
	"errors"
	"runtime/debug"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/ledger"
)

// receive is the Consume callback. It appends m to the backlog, where the
// workers take it and heartbeats keep it alive meanwhile, and pauses
// pulling when the backlog is full; once Run is stopping it settles m
// itself, without a worker. (Tests that call it without Run, and so
// without workers, process m in the callback.)
func (r *Runner) receive(m jetstream.Msg) {
	if r.backlog == nil {
		r.process(m, r.slots[0])
		return
	}
	if n, ok := r.backlog.push(m); ok {
		r.intake.pushed(n)
		return
	}
	r.settleStopping(m, 0)
}

// settleStopping settles m, delivered or left in the backlog once Run is
// stopping: Decide releases it, or has it handled here on its last
// delivery while draining, in a slot the watch loop and shutdown see
// (heartbeats, the drain timeout), detached so that no worker replaces
// it. sinceHB is the watch loop's ticks since m's last heartbeat.
func (r *Runner) settleStopping(m jetstream.Msg, sinceHB int) {
	s := new(slot)
	s.detached.Store(true)
	s.carry(sinceHB)
	r.slotsMu.Lock()
	r.slots = append(r.slots, s)
	r.slotsMu.Unlock()
	defer func() {
		r.slotsMu.Lock()
		r.slots = slices.DeleteFunc(r.slots, func(o *slot) bool { return o == s })
		r.slotsMu.Unlock()
	}()
	r.process(m, s)
}

// draining reports that the runner is stopping with drain time left for
// handlers: not Stop, and the drain timeout has not canceled them.
func (r *Runner) draining() bool {
	return r.stopping.Load() && !r.stopNow.Load() && r.hctx.Err() == nil
}

// process handles one delivery from start to broker action.
func (r *Runner) process(m jetstream.Msg, s *slot) {
	// The success path of a first delivery needs only the delivery count,
	// the stream sequence and the store time; every other path reads the
	// full metadata.
	n, seq, stored, ok := ackFields(m.Reply())
	var md *jetstream.MsgMetadata
	if !ok {
		var err error
		if md, err = m.Metadata(); err != nil {
			r.log.Error("bus: message without JetStream metadata; left for redelivery", "subject", m.Subject(), "err", err)
			return
		}
		n, seq, stored = md.NumDelivered, md.Sequence.Stream, md.Timestamp.UnixNano()
	}
	if h := m.Headers(); h != nil {
		if c := h.Get(dlq.HeaderReplayFor); c != "" && c != r.consumer && r.foreignReplay(m, seq, n, c) {
			return // a replay meant for another consumer, which takes it
		}
		if e, err := dlq.HandedBack(h, m.Data()); e != nil {
			r.handedBack(m, s, seq, n, e) // a dead letter handed back to the stream: stored, the handler not run
			return
		} else if err != nil {
			r.log.Warn("bus: a message marked as a handed-back dead letter does not carry one; handling it as an ordinary message",
				"seq", seq, "subject", m.Subject(), "err", err)
		}
	}
	s.begin(m)
	defer s.end()
	r.waitOutage() // the slot holds m: heartbeats keep it while it waits
	in := Input{NumDelivered: n, Stopping: r.stopping.Load(), Draining: r.draining(), HistoryExact: n <= 1}
	if stored != 0 {
		in.Stored = time.Unix(0, stored)
	}
	d := r.cfg.decide(in)
	loaded := n <= 1
	if n > 1 && (d.Action == ActionHandle || d.Action == ActionDeadLetter && d.Class == ClassMaxDeliveries) {
		if v, ok := r.verdicts.take(seq); ok {
			r.retryDeadLetter(m, seq, n, v, ledger.Record{})
			return
		}
		in.History, in.HistoryExact = r.history(seq, stored, n)
		loaded = true
		if in.History.Verdict != "" {
			// A dead letter decided on an earlier delivery, maybe by
			// another instance, whose DLQ write failed: write it, without
			// running the handler again.
			r.retryDeadLetter(m, seq, n, r.recordedVerdict(in), in.History)
			return
		}
	}
	var took time.Duration
	if d.Action == ActionHandle {
		// The call gets a context of its own, bounded by the handler
		// timeout and canceled by shutdown after the drain timeout. Its
		// parent is never canceled, so a call registers with no shared
		// parent. One clock reading serves its deadline and the call's
		// duration.
		start := time.Now()
		ctx, cancel := newCallContext(r.callBase, start.Add(r.handlerTimeout), r.attempt(&in), &r.cfg)
		s.calling(cancel)
		err := r.invoke(ctx, m)
		abandoned := s.calling(nil)
		timedOut := ctx.Err() == context.DeadlineExceeded
		cancel(nil)
		if r.observe != nil {
			took = time.Since(start)
		}
		if abandoned {
			r.calls.returned(s) // the watch loop or shutdown settled it
			return
		}
		in.Ran, in.Stopping = true, r.stopping.Load()
		if err == nil {
			// Decide maps a successful run to an Ack whatever else holds
			// (also one that outlived its timeout): the success path
			// settles here.
			if r.confirmJS != nil {
				r.ackedConfirmed(m, seq, n, stored, took)
			} else {
				r.acked(m, seq, n, stored, took)
			}
			return
		}
		if timedOut && r.hctx.Err() == nil {
			err = &TimeoutError{After: r.handlerTimeout, Err: err}
		}
		if de := (*DecodeError)(nil); errors.As(err, &de) {
			in.DecodeErr = err
		} else {
			in.Err = err
		}
	}
	r.settle(m, md, seq, in, took, loaded)
}

// attempt returns the Attempt a handler call reads from its context.
func (r *Runner) attempt(in *Input) Attempt {
	a := Attempt{
		Number:       in.attempt(),
		Delivery:     in.NumDelivered,
		Exact:        in.exact(),
		Snoozes:      in.History.Snoozes,
		FirstFailure: in.History.FirstFailure,
		LastClass:    in.History.LastClass,
		Stored:       in.Stored,
	}
	if r.cfg.MaxAge > 0 && !in.Stored.IsZero() {
		a.AgeBudgetEnd = in.Stored.Add(r.cfg.MaxAge)
	}
	return a
}

// settle carries out what Decide makes of in, and reports it. md is the
// message's metadata, read here when nil. loaded says whether in carries
// the message's history already (an abandoned call's does not).
func (r *Runner) settle(m jetstream.Msg, md *jetstream.MsgMetadata, seq uint64, in Input, took time.Duration, loaded bool) {
	if md == nil {
		var err error
		if md, err = m.Metadata(); err != nil {
			r.log.Error("bus: message without JetStream metadata; left for redelivery", "subject", m.Subject(), "err", err)
			return
		}
	}
	in.Stored = md.Timestamp
	if !loaded && (in.Ran || !in.Stopping) { // a release at shutdown needs no history
		in.History, in.HistoryExact = r.history(seq, md.Timestamp.UnixNano(), in.NumDelivered)
	}
	in.Now = r.now()
	d := r.cfg.decide(in)
	ev := Event{
		Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(),
		StreamSeq: seq, NumDelivered: in.NumDelivered,
		Err: in.cause(), HandlerTime: took,
	}
	var s send
	ev.Decision, ev.DeadLetterErr, s = r.apply(m, seq, md, in, d)
	r.finish(m, s, ev)
}

// acked settles a message whose handler succeeded: an Ack, reported as
// every other decision is.
func (r *Runner) acked(m jetstream.Msg, seq, n uint64, stored int64, took time.Duration) {
	ev := r.succeeded(m, seq, n, took)
	// The Ack in plain sight: retrylint infers from it that a handler's
	// nil is acked (its own runner is a bus like any other).
	ev.AckErr = m.Ack()
	r.report(ev)
	r.forget(seq, stored, n)
}

// ackedConfirmed is acked under WithConfirmedSettlement.
func (r *Runner) ackedConfirmed(m jetstream.Msg, seq, n uint64, stored int64, took time.Duration) {
	r.confirms.send(m.Reply(), ackBody, r.succeeded(m, seq, n, took))
	r.forget(seq, stored, n)
}

// succeeded returns the event of the Ack of a message whose handler
// succeeded.
func (r *Runner) succeeded(m jetstream.Msg, seq, n uint64, took time.Duration) Event {
	return Event{
		Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(),
		StreamSeq: seq, NumDelivered: n, HandlerTime: took,
		Decision: Decision{Action: ActionAck},
	}
}

// invoke runs the handler and turns a panic into a *PanicError.
func (r *Runner) invoke(ctx context.Context, m jetstream.Msg) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return r.handler(ctx, m)
}

// apply carries out d on m, up to the acknowledgement. It returns the
// decision actually carried out (another one when the DLQ write fails), the
// DLQ error and the acknowledgement to send.
//
// md is the message's full metadata; it may be nil for ActionAck only.
func (r *Runner) apply(m jetstream.Msg, seq uint64, md *jetstream.MsgMetadata, in Input, d Decision) (done Decision, dlqErr error, s send) {
	switch d.Action {
	case ActionAck:
		if in.Ran && in.cause() != nil {
			r.log.Info("bus: discarded by its class policy", "seq", seq, "subject", m.Subject(),
				"delivered", md.NumDelivered, "class", d.Class, "reason", d.Reason, "err", in.cause())
		}
		r.forget(seq, md.Timestamp.UnixNano(), in.NumDelivered)
		return d, nil, send{kind: sendAck}
	case ActionNakWithDelay, ActionNak:
		if d.Class != ClassShutdown {
			// Recorded before the Nak: the redelivery, here or on another
			// instance, reads it.
			r.record(md, in, d)
			r.log.Debug("bus: redeliver", "seq", md.Sequence.Stream, "delivered", md.NumDelivered,
				"class", d.Class, "delay", d.Requested, "sent", d.Delay, "attempt", d.Budget.Attempt,
				"attempts_left", d.Budget.AttemptsLeft, "budget_left", d.Budget.Left, "err", in.cause())
		}
		return d, nil, nakAfter(d.Delay)
	case ActionDeadLetter:
		return r.deadLetter(m, md, in, d)
	}
	// ActionHandle cannot reach here: Decide returns it only before the
	// handler ran. Leave the message for redelivery rather than guess.
	r.log.Error("bus: no action decided; left for redelivery", "action", d.Action, "seq", seq)
	return d, nil, send{}
}

// nakAfter redelivers after d: NakWithDelay for a positive delay, Nak for
// exactly 0.
func nakAfter(d time.Duration) send {
	if d > 0 {
		return send{kind: sendNakWithDelay, delay: d}
	}
	return send{kind: sendNak}
}

// deadLetter writes the DLQ, checks the write, and only then terminates m.
// If the write fails, m is redelivered after the dead-letter retry delay and
// is not terminated.
func (r *Runner) deadLetter(m jetstream.Msg, md *jetstream.MsgMetadata, in Input, d Decision) (done Decision, dlqErr error, s send) {
	now := in.Now
	if now.IsZero() {
		now = r.now()
	}
	return r.writeThenTerm(m, md, in, verdict{decision: d, entry: r.evidence(m, md, in, d, now), cause: in.cause()})
}

// writeThenTerm writes e and terminates m, or, when the write fails, keeps
// the verdict and redelivers m after a delay that grows while the DLQ
// keeps failing; on the server's last delivery, where no redelivery comes,
// the write is retried until the runner stops, which hands m back.
func (r *Runner) writeThenTerm(m jetstream.Msg, md *jetstream.MsgMetadata, in Input, v verdict) (done Decision, dlqErr error, s send) {
	d, e := v.decision, v.entry
	final := r.serverMax > 0 && md.NumDelivered >= r.serverMax
	if err := r.writeDLQ(m, e, final); err != nil {
		if final {
			// The runner stops (its in-process retries end only then), and
			// the server will not deliver the message again: a Nak would
			// lose it.
			return r.handBack(m, md, v, err)
		}
		in.DeadLetterErr = err
		v.failures++
		retryIn := r.cfg.nak(md.NumDelivered, v.retryDelay(r.cfg.DeadLetterRetryDelay), 0, ClassDeadLetterFailed, "dead-letter write failed")
		r.verdicts.keep(md.Sequence.Stream, v)
		if !v.handback {
			r.recordVerdict(md, in, v)
		}
		r.log.Error("bus: dead-letter write failed; message kept for redelivery", "seq", md.Sequence.Stream,
			"class", d.Class, "retry_in", retryIn.Requested, "err", err)
		if pause := r.outage.failed(time.Now(), r.cfg.DeadLetterRetryDelay, r.maxPause()); pause > 0 {
			r.log.Warn("bus: the DLQ keeps failing; pausing deliveries", "pause", pause)
		}
		return retryIn, err, send{kind: sendNakWithDelay, delay: retryIn.Delay}
	}
	r.forget(md.Sequence.Stream, md.Timestamp.UnixNano(), md.NumDelivered)
	r.outage.succeeded()
	if r.beforeTerm != nil {
		r.beforeTerm(e)
	}
	r.log.Warn("bus: dead-lettered", "seq", md.Sequence.Stream, "subject", m.Subject(),
		"delivered", md.NumDelivered, "class", d.Class, "reason", d.Reason, "err", e.Error)
	return d, nil, send{kind: sendTerm}
}

// retryDeadLetter retries the dead letter of a message whose DLQ write
// failed on an earlier delivery to this runner: the verdict stands, the
// handler does not run again.
//
// The verdict is this process's (v.entry set), or one read from the
// ledger (hist), whose entry is built here.
func (r *Runner) retryDeadLetter(m jetstream.Msg, seq, n uint64, v verdict, hist ledger.Record) {
	md, err := m.Metadata()
	if err != nil {
		r.log.Error("bus: message without JetStream metadata; left for redelivery", "subject", m.Subject(), "err", err)
		return
	}
	in := Input{NumDelivered: n, Ran: true, Stopping: r.stopping.Load(), Err: v.cause,
		History: hist, HistoryExact: true, Now: r.now(), Stored: md.Timestamp}
	v.retried = true
	if v.entry == nil {
		v.entry = r.evidence(m, md, in, v.decision, in.Now)
	} else {
		e := *v.entry
		e.Deliveries, e.ConsumerSeq = md.NumDelivered, md.Sequence.Consumer
		v.entry = &e
	}
	ev := Event{
		Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(),
		StreamSeq: seq, NumDelivered: n, Err: v.cause,
	}
	var s send
	ev.Decision, ev.DeadLetterErr, s = r.writeThenTerm(m, md, in, v)
	r.finish(m, s, ev)
}

// writeDLQ writes e, bounded by the dead-letter timeout. On the server's
// final delivery (final), where a redelivery will never come, it keeps
// retrying in process, holding the message with heartbeats, until the write
// succeeds or the runner's handlers are canceled (at shutdown; the caller
// then hands the dead letter back to the stream).
//
// A dead letter at shutdown is written even once the handlers' context is
// canceled (the drain timeout passed): it is the message's last chance.
func (r *Runner) writeDLQ(m jetstream.Msg, e *dlq.Entry, final bool) error {
	base := r.hctx
	if e.Class == string(ClassShutdown) {
		base = context.WithoutCancel(base)
	}
	for {
		ctx, cancel := context.WithTimeout(base, r.dlqTimeout)
		err := r.dlq.Write(ctx, e)
		cancel()
		if err == nil || !final {
			return err
		}
		r.log.Error("bus: dead-letter write failed on the final delivery; retrying in process", "seq", e.StreamSeq, "err", err)
		t := time.NewTimer(r.cfg.DeadLetterRetryDelay)
		select {
		case <-r.hctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		_ = m.InProgress() // the heartbeat loop also covers it; this is cheap insurance
	}
}
