package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
)

var (
	// ErrAckPolicy is returned by NewRunner for a consumer whose ack policy
	// is not explicit: the runner must acknowledge each message on its own.
	ErrAckPolicy = errors.New("bus: consumer ack policy must be explicit")
	// ErrConsumerBackOff is returned by NewRunner, with BackOffRefuse, for a
	// consumer that has a BackOff list.
	ErrConsumerBackOff = errors.New("bus: consumer has a BackOff list, which stretches NakWithDelay")
	// ErrRunning is returned by Run when the runner is or was already
	// running: a Runner runs once.
	ErrRunning = errors.New("bus: runner already started")
	// ErrConsumerGone is wrapped by the error Run returns when the consumer
	// or the connection goes away for good.
	ErrConsumerGone = errors.New("bus: consumer stopped")
)

// DeadLetterWriter stores the evidence of a message that will not be
// retried. Write must return nil only once the entry is durably stored, and
// must be idempotent for entries with the same ID. *dlq.Store implements it.
type DeadLetterWriter interface {
	Write(ctx context.Context, e *dlq.Entry) error
}

// Runner consumes a JetStream pull consumer and maps each handler outcome
// onto the broker with Decide. Create it with NewRunner and start it with
// Run.
type Runner struct {
	cons    jetstream.Consumer
	dlq     DeadLetterWriter
	handler Handler
	js      jetstream.JetStream // for advisories; nil when off

	cfg          Config
	name         string
	stream       string
	consumer     string
	serverMax    uint64 // the consumer's MaxDeliver, 0 when unlimited
	backOffMode  BackOffMode
	concurrency  int
	pullMax      int
	heartbeat    time.Duration
	drainTimeout time.Duration
	dlqTimeout   time.Duration
	log          *slog.Logger
	observe      func(Event)
	beforeTerm   func(*dlq.Entry) // test hook: between the DLQ write and Term

	started  atomic.Bool
	stopping atomic.Bool
	hctx     context.Context // handlers' context, canceled after the drain timeout
	work     chan jetstream.Msg
	slots    []slot
	fails    failures
}

// NewRunner returns a runner of h over cons that dead-letters through dead.
// It reads the consumer's configuration, which must have an explicit ack
// policy, and derives from it the delivery cap (the smaller of MaxDeliver
// and WithMaxDeliveries), the BackOff compensation and the heartbeat
// interval.
func NewRunner(ctx context.Context, cons jetstream.Consumer, dead DeadLetterWriter, h Handler, opts ...Option) (*Runner, error) {
	r := &Runner{
		cons:         cons,
		dlq:          dead,
		handler:      h,
		cfg:          DefaultConfig(),
		concurrency:  DefaultConcurrency,
		pullMax:      DefaultPullMaxMessages,
		drainTimeout: DefaultDrainTimeout,
		dlqTimeout:   DefaultDeadLetterTimeout,
		log:          slog.Default(),
	}
	for _, opt := range opts {
		if err := opt(r); err != nil {
			return nil, err
		}
	}
	switch {
	case cons == nil:
		return nil, fmt.Errorf("%w: nil consumer", ErrInvalidOption)
	case dead == nil:
		return nil, fmt.Errorf("%w: nil dead-letter writer", ErrInvalidOption)
	case h == nil:
		return nil, fmt.Errorf("%w: nil handler", ErrInvalidOption)
	}
	r.cfg = r.cfg.withDefaults()
	info, err := cons.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("bus: consumer info: %w", err)
	}
	cc := info.Config
	if cc.AckPolicy != jetstream.AckExplicitPolicy {
		return nil, fmt.Errorf("%w: consumer %s has %v", ErrAckPolicy, info.Name, cc.AckPolicy)
	}
	r.stream, r.consumer = info.Stream, info.Name
	if r.name == "" {
		r.name = info.Name
	}
	if cc.MaxDeliver > 0 {
		r.serverMax = uint64(cc.MaxDeliver)
		r.cfg.MaxDeliveries = min(r.cfg.MaxDeliveries, r.serverMax)
	}
	ackWait := cc.AckWait
	if len(cc.BackOff) > 0 {
		if r.backOffMode == BackOffRefuse {
			return nil, fmt.Errorf("%w: consumer %s BackOff %v", ErrConsumerBackOff, info.Name, cc.BackOff)
		}
		r.cfg.BackOff = append([]time.Duration(nil), cc.BackOff...)
		for _, b := range cc.BackOff {
			ackWait = min(ackWait, b)
		}
	}
	if r.heartbeat == 0 && ackWait > 0 {
		r.heartbeat = max(ackWait/3, 10*time.Millisecond)
	}
	r.log = r.log.With("stream", r.stream, "consumer", r.consumer)
	if r.serverMax > 0 && r.serverMax <= r.cfg.MaxDeliveries && r.js == nil {
		r.log.Info("bus: consumer MaxDeliver is the delivery cap; a DLQ write that fails on the last delivery is retried in process, and a crash during it is only caught with WithAdvisories",
			"max_deliver", r.serverMax)
	}
	return r, nil
}

// Config returns the decision configuration the runner uses.
func (r *Runner) Config() Config { return r.cfg }

// Run consumes until ctx is done or the consumer goes away. At shutdown it
// stops pulling, releases buffered messages that no handler has started
// (Nak: another worker may take them at once), and waits for running
// handlers up to the drain timeout, after which their context is canceled.
// It returns nil after a shutdown through ctx, and an error wrapping
// ErrConsumerGone when the consumer or the connection is gone.
func (r *Runner) Run(ctx context.Context) error {
	if !r.started.CompareAndSwap(false, true) {
		return ErrRunning
	}
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	r.hctx = hctx
	r.slots = make([]slot, r.concurrency)

	var workers sync.WaitGroup
	if r.concurrency > 1 {
		r.work = make(chan jetstream.Msg)
		for i := range r.concurrency {
			workers.Go(func() {
				for m := range r.work {
					r.process(m, &r.slots[i])
				}
			})
		}
	}

	bgctx, bgcancel := context.WithCancel(hctx)
	defer bgcancel()
	var bg sync.WaitGroup
	if r.heartbeat > 0 {
		bg.Go(func() { r.heartbeats(bgctx) })
	}
	if r.js != nil {
		stop, err := r.captureAdvisories(bgctx)
		if err != nil {
			return err
		}
		defer stop()
	}

	fatal := make(chan error, 1)
	cc, err := r.cons.Consume(r.receive,
		jetstream.PullMaxMessages(r.pullMax),
		jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			if isFatal(err) {
				select {
				case fatal <- err:
				default:
				}
				return
			}
			r.log.Warn("bus: consume", "err", err)
		}))
	if err != nil {
		return fmt.Errorf("bus: consume: %w", err)
	}

	var runErr error
	select {
	case <-ctx.Done():
	case err := <-fatal:
		runErr = fmt.Errorf("%w: %w", ErrConsumerGone, err)
	case <-cc.Closed():
		runErr = ErrConsumerGone
	}
	r.stopping.Store(true)
	cc.Drain()
	drain := time.NewTimer(r.drainTimeout)
	select {
	case <-cc.Closed():
	case <-drain.C:
		r.log.Warn("bus: drain timeout; canceling running handlers", "timeout", r.drainTimeout)
		hcancel()
		<-cc.Closed()
	}
	drain.Stop()
	if r.work != nil {
		close(r.work)
	}
	workers.Wait()
	bgcancel()
	bg.Wait()
	return runErr
}

func isFatal(err error) bool {
	return errors.Is(err, jetstream.ErrConsumerDeleted) ||
		errors.Is(err, jetstream.ErrConsumerNotFound) ||
		errors.Is(err, jetstream.ErrConnectionClosed)
}

// receive is the Consume callback.
func (r *Runner) receive(m jetstream.Msg) {
	if r.work != nil {
		r.work <- m
		return
	}
	r.process(m, &r.slots[0])
}

// process handles one delivery from start to broker action.
func (r *Runner) process(m jetstream.Msg, s *slot) {
	// The success path needs only the delivery count and the stream
	// sequence; every other path reads the full metadata.
	n, seq, ok := ackInfo(m.Reply())
	var md *jetstream.MsgMetadata
	if !ok {
		var err error
		if md, err = m.Metadata(); err != nil {
			r.log.Error("bus: message without JetStream metadata; left for redelivery", "subject", m.Subject(), "err", err)
			return
		}
		n, seq = md.NumDelivered, md.Sequence.Stream
	}
	s.begin(m)
	defer s.end()
	in := Input{NumDelivered: n, Stopping: r.stopping.Load()}
	d := r.cfg.decide(in)
	var took time.Duration
	if d.Action == ActionHandle {
		var start time.Duration
		if r.observe != nil {
			start = monotonic()
		}
		err := r.call(m)
		if r.observe != nil {
			took = monotonic() - start
		}
		in.Ran, in.Stopping = true, r.stopping.Load()
		if err != nil {
			if de := (*DecodeError)(nil); errors.As(err, &de) {
				in.DecodeErr = err
			} else {
				in.Err = err
			}
		}
		d = r.cfg.decide(in)
	}
	if md == nil && d.Action != ActionAck {
		var err error
		if md, err = m.Metadata(); err != nil {
			r.log.Error("bus: message without JetStream metadata; left for redelivery", "subject", m.Subject(), "err", err)
			return
		}
	}
	ev := Event{
		Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(),
		StreamSeq: seq, NumDelivered: n,
		Err: in.cause(), HandlerTime: took,
	}
	ev.Decision, ev.DeadLetterErr, ev.AckErr = r.apply(m, seq, md, in, d)
	if ev.AckErr != nil {
		r.log.Warn("bus: acknowledgement failed; the server will redeliver", "action", ev.Decision.Action, "seq", seq, "err", ev.AckErr)
	}
	if r.observe != nil {
		r.observe(ev)
	}
}

// epoch anchors monotonic.
var epoch = time.Now()

// monotonic reads only the monotonic clock, which is cheaper than time.Now.
func monotonic() time.Duration { return time.Since(epoch) }

// call runs the handler and turns a panic into a *PanicError.
func (r *Runner) call(m jetstream.Msg) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return r.handler(r.hctx, m)
}

// apply carries out d on m. It returns the decision actually carried out
// (another one when the DLQ write fails), the DLQ error and the error of the
// acknowledgement.
//
// md is the message's full metadata; it may be nil for ActionAck only.
func (r *Runner) apply(m jetstream.Msg, seq uint64, md *jetstream.MsgMetadata, in Input, d Decision) (done Decision, dlqErr, ackErr error) {
	switch d.Action {
	case ActionAck:
		if in.NumDelivered > 1 {
			r.fails.forget(seq)
		}
		return d, nil, m.Ack()
	case ActionNakWithDelay, ActionNak:
		if d.Class != ClassShutdown {
			r.fails.record(md.Sequence.Stream, time.Now())
			r.log.Debug("bus: redeliver", "seq", md.Sequence.Stream, "delivered", md.NumDelivered,
				"class", d.Class, "delay", d.Requested, "sent", d.Delay, "err", in.cause())
		}
		return d, nil, nakAfter(m, d.Delay)
	case ActionDeadLetter:
		return r.deadLetter(m, md, in, d)
	}
	// ActionHandle cannot reach here: Decide returns it only before the
	// handler ran. Leave the message for redelivery rather than guess.
	r.log.Error("bus: no action decided; left for redelivery", "action", d.Action, "seq", seq)
	return d, nil, nil
}

// nakAfter redelivers m after d: NakWithDelay for a positive delay, Nak for
// exactly 0.
func nakAfter(m jetstream.Msg, d time.Duration) (err error) {
	if d > 0 {
		err = m.NakWithDelay(d)
	} else {
		err = m.Nak()
	}
	return err
}

// deadLetter writes the DLQ, checks the write, and only then terminates m.
// If the write fails, m is redelivered after the dead-letter retry delay and
// is not terminated.
func (r *Runner) deadLetter(m jetstream.Msg, md *jetstream.MsgMetadata, in Input, d Decision) (done Decision, dlqErr, ackErr error) {
	now := time.Now()
	e := r.evidence(m, md, in, d, now)
	final := r.serverMax > 0 && md.NumDelivered >= r.serverMax
	if err := r.writeDLQ(m, e, final); err != nil {
		in.DeadLetterErr = err
		retryIn := r.cfg.decide(in)
		r.log.Error("bus: dead-letter write failed; message kept for redelivery", "seq", md.Sequence.Stream,
			"class", d.Class, "retry_in", retryIn.Requested, "err", err)
		return retryIn, err, m.NakWithDelay(retryIn.Delay)
	}
	r.fails.forget(md.Sequence.Stream)
	if r.beforeTerm != nil {
		r.beforeTerm(e)
	}
	r.log.Warn("bus: dead-lettered", "seq", md.Sequence.Stream, "subject", m.Subject(),
		"delivered", md.NumDelivered, "class", d.Class, "reason", d.Reason, "err", e.Error)
	return d, nil, m.Term()
}

// writeDLQ writes e, bounded by the dead-letter timeout. On the server's
// final delivery (final), where a redelivery will never come, it keeps
// retrying in process, holding the message with heartbeats, until the write
// succeeds or the runner's handlers are canceled.
func (r *Runner) writeDLQ(m jetstream.Msg, e *dlq.Entry, final bool) error {
	for {
		ctx, cancel := context.WithTimeout(r.hctx, r.dlqTimeout)
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
