package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
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
	// ErrHandlersStuck is wrapped by the error Run returns when handler
	// calls it abandoned (they ignored their canceled context) still run
	// as it returns; the error names them.
	ErrHandlersStuck = errors.New("bus: handler calls still running")
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

	cfg            Config
	name           string
	stream         string
	consumer       string
	serverMax      uint64 // the consumer's MaxDeliver, 0 when unlimited
	backOffMode    BackOffMode
	concurrency    int
	pullMax        int
	heartbeat      time.Duration
	drainTimeout   time.Duration
	handlerTimeout time.Duration
	dlqTimeout     time.Duration
	log            *slog.Logger
	observe        func(Event)
	onHeartbeat    func(Heartbeat)     // WithHeartbeatObserver
	confirmJS      jetstream.JetStream // WithConfirmedSettlement; nil when off
	confirmTimeout time.Duration
	beforeTerm     func(*dlq.Entry) // test hook: between the DLQ write and Term
	ledger         Ledger           // WithLedger; nil when off
	now            func() time.Time // the clock of decisions (tests set it)

	started  atomic.Bool
	stopping atomic.Bool
	hctx     context.Context // canceled after the drain timeout: DLQ writes give up
	callBase context.Context // parent of each handler call's context; never canceled itself
	backlog  *backlog        // delivered messages no worker has started (nil in tests without Run)
	intake   *intake         // the pull subscription, paused while the backlog is full
	quit     chan struct{}   // closed at shutdown: workers stop, late deliveries are released
	slotsMu  sync.Mutex
	slots    []*slot // one per worker (tests without Run: the callback's)
	fails    failures
	outage   outage   // the DLQ's health: pulling pauses while it is down
	calls    calls    // abandoned handler calls still running, for naming them
	verdicts verdicts // dead letters whose DLQ write failed, by stream sequence
	targets  replayTargets
	releases releases // shutdown releases, held until the pull request is gone

	confirms *confirmer // Run's, under WithConfirmedSettlement; nil when off

	stopReq  chan struct{} // closed by Drain and Stop: Run shuts down as on cancel
	stopOnce sync.Once
	stopNow  atomic.Bool // Stop: no drain time for running handlers
}

// Drain shuts the runner down as canceling Run's context does: it stops
// pulling, releases the messages no handler started, and lets running
// handlers finish within the drain timeout. It does not wait: Run returns
// once the runner is done. Drain before Run makes Run return at once.
func (r *Runner) Drain() { r.stopOnce.Do(func() { close(r.stopReq) }) }

// Stop shuts the runner down without drain time: as Drain, but the
// running handlers' contexts are canceled at once, and their messages are
// settled as interrupted by shutdown (released, or dead-lettered on the
// cap). It does not wait: Run returns once the runner is done.
func (r *Runner) Stop() {
	r.stopNow.Store(true)
	r.Drain()
}

// NewRunner returns a runner of h over cons that dead-letters through dead.
// It reads the consumer's configuration, which must have an explicit ack
// policy, and derives from it the delivery cap (the smaller of MaxDeliver
// and WithMaxDeliveries), the BackOff compensation and the heartbeat
// interval.
func NewRunner(ctx context.Context, cons jetstream.Consumer, dead DeadLetterWriter, h Handler, opts ...Option) (*Runner, error) {
	r := &Runner{
		cons:           cons,
		dlq:            dead,
		handler:        h,
		cfg:            DefaultConfig(),
		concurrency:    DefaultConcurrency,
		pullMax:        DefaultPullMaxMessages,
		drainTimeout:   DefaultDrainTimeout,
		handlerTimeout: DefaultHandlerTimeout,
		dlqTimeout:     DefaultDeadLetterTimeout,
		log:            slog.Default(),
		confirmTimeout: DefaultConfirmTimeout,
		stopReq:        make(chan struct{}),
		now:            time.Now,
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
		// The cap is one delivery short of the server's last, when there is
		// more than one: a dead letter whose write fails on the cap still
		// gets a redelivery (dead-lettered then without running the
		// handler), instead of a NakWithDelay the server never honours.
		r.serverMax = uint64(cc.MaxDeliver)
		r.cfg.MaxDeliveries = min(r.cfg.MaxDeliveries, max(r.serverMax-1, 1))
	}
	ackWait := cc.AckWait
	if len(cc.BackOff) > 0 {
		if r.backOffMode == BackOffRefuse {
			return nil, fmt.Errorf("%w: consumer %s BackOff %v", ErrConsumerBackOff, info.Name, cc.BackOff)
		}
		r.cfg.ConsumerBackOff = append([]time.Duration(nil), cc.BackOff...)
		for _, b := range cc.BackOff {
			ackWait = min(ackWait, b)
		}
	}
	if r.heartbeat == 0 && ackWait > 0 {
		r.heartbeat = max(ackWait/3, 10*time.Millisecond)
	}
	if err := r.checkOptions(info.Name, ackWait); err != nil {
		return nil, err
	}
	r.log = r.log.With("stream", r.stream, "consumer", r.consumer)
	r.targets.check = r.replayTargetChecker()
	if r.serverMax == 1 && r.js == nil {
		r.log.Info("bus: consumer MaxDeliver 1 leaves no redelivery; a DLQ write that fails is retried in process, and a crash during it is only caught with WithAdvisories",
			"max_deliver", r.serverMax)
	}
	return r, nil
}

// checkOptions checks the options against each other and against the
// consumer: each alone is in range, but together some would be silently
// overridden (a delay above the cap that clamps it) or defeat their
// purpose (heartbeats slower than the ack wait they must beat). It
// returns every conflict, joined, each wrapping ErrInvalidOption.
func (r *Runner) checkOptions(consumer string, ackWait time.Duration) error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalidOption}, args...)...))
	}
	c := &r.cfg
	if c.PoisonDelay > c.MaxNakDelay {
		bad("poison delay %v is above the max nak delay %v, which would cap it", c.PoisonDelay, c.MaxNakDelay)
	}
	if c.DeadLetterRetryDelay > c.MaxNakDelay {
		bad("dead-letter retry delay %v is above the max nak delay %v, which would cap it", c.DeadLetterRetryDelay, c.MaxNakDelay)
	}
	if top := c.Backoff.Step(c.Backoff.MaxAttempts()); top > c.MaxNakDelay {
		bad("the backoff policy's largest delay %v is above the max nak delay %v, which would cap it", top, c.MaxNakDelay)
	}
	for i := range c.Classes {
		p := &c.Classes[i]
		for _, d := range p.Delays {
			if d > c.MaxNakDelay {
				bad("class policy %q: delay %v is above the max nak delay %v, which would cap it", p.Class, d, c.MaxNakDelay)
				break
			}
		}
		if p.Backoff != nil {
			if top := p.Backoff.Step(p.Backoff.MaxAttempts()); top > c.MaxNakDelay {
				bad("class policy %q: its backoff's largest delay %v is above the max nak delay %v, which would cap it", p.Class, top, c.MaxNakDelay)
			}
		}
		if c.MaxAge > 0 && p.Within >= c.MaxAge {
			bad("class policy %q: grace window %v is not shorter than the message-age budget %v, so it never ends first", p.Class, p.Within, c.MaxAge)
		}
	}
	if ackWait > 0 && r.heartbeat >= ackWait {
		bad("heartbeat %v is not shorter than consumer %s's ack wait %v: a message would be redelivered while its handler runs", r.heartbeat, consumer, ackWait)
	}
	if r.concurrency > r.pullMax {
		bad("concurrency %d is above the pull buffer of %d messages: the workers beyond it stay idle", r.concurrency, r.pullMax)
	}
	return errors.Join(errs...)
}

// Config returns the decision configuration the runner uses.
func (r *Runner) Config() Config { return r.cfg }

// Run consumes until ctx is done or the consumer goes away. At shutdown it
// stops pulling, releases buffered messages that no handler has started
// (Nak, once its pull request is gone: another worker may take them at
// once, and they do not come back here), handles those on their last
// delivery, and waits for running handlers up to the drain timeout, after
// which their context is canceled.
// It returns nil after a shutdown through ctx, and an error wrapping
// ErrConsumerGone when the consumer or the connection is gone. Its exit is
// bounded: a handler that ignores its canceled context is abandoned after
// HandlerTimeoutGrace, and the error, wrapping ErrHandlersStuck, names it.
func (r *Runner) Run(ctx context.Context) (err error) {
	if !r.started.CompareAndSwap(false, true) {
		return ErrRunning
	}
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	r.hctx, r.callBase = hctx, context.WithoutCancel(hctx)
	r.quit = make(chan struct{})
	if r.confirmJS != nil {
		c, err := newConfirmer(r.confirmJS.Conn(), r.confirmTimeout, maxUnconfirmed, r.report)
		if err != nil {
			return fmt.Errorf("bus: confirmed settlement: %w", err)
		}
		r.confirms = c
		defer c.close() // after shutdown: each settlement is bounded by the confirm timeout
	}
	defer func() { // runs last
		if stuck := r.calls.running(time.Now()); len(stuck) > 0 {
			r.log.Error("bus: handler calls still running at exit", "calls", stuck)
			err = errors.Join(err, fmt.Errorf("%w: %s", ErrHandlersStuck, strings.Join(stuck, "; ")))
		}
	}()

	// Background loops stop when Run returns; workers at shutdown.
	bgctx, bgcancel := context.WithCancel(hctx)
	var bg, workers sync.WaitGroup
	defer func() { bgcancel(); bg.Wait() }()
	// Handlers run on workers, also with a concurrency of 1: the Consume
	// callback only hands messages over, so that a call deaf to its
	// context can be abandoned and its worker replaced, rather than hold
	// the callback, and with it the consumer, until it returns.
	r.backlog = newBacklog()
	spawn := func() {
		s := new(slot)
		r.slotsMu.Lock()
		r.slots = append(r.slots, s)
		r.slotsMu.Unlock()
		workers.Add(1)
		go r.worker(s, workers.Done)
	}
	for range r.concurrency {
		spawn()
	}
	// A worker whose call is abandoned is detached: the abandoner counts
	// it done, and a new worker takes its place.
	replace := func(s *slot) {
		if !s.detached.CompareAndSwap(false, true) {
			return
		}
		r.slotsMu.Lock()
		r.slots = slices.DeleteFunc(r.slots, func(o *slot) bool { return o == s })
		r.slotsMu.Unlock()
		workers.Done()
		if !r.stopping.Load() {
			spawn()
		}
	}
	bg.Go(func() { r.watch(bgctx, replace) })
	if r.js != nil {
		stop, err := r.captureAdvisories(bgctx)
		if err != nil {
			return err
		}
		defer func() { bgcancel(); stop() }()
	}

	fatal := make(chan error, 1)
	gone := func(err error) {
		if err == nil {
			err = ErrConsumerGone
		} else {
			err = fmt.Errorf("%w: %w", ErrConsumerGone, err)
		}
		select {
		case fatal <- err:
		default:
		}
	}
	r.intake = r.newIntake(gone)
	if err := r.intake.start(); err != nil {
		close(r.quit)
		r.backlog.close()
		workers.Wait()
		r.releaseHeld()
		return fmt.Errorf("bus: consume: %w", err)
	}

	var runErr error
	select {
	case <-ctx.Done():
	case <-r.stopReq:
	case runErr = <-fatal:
	}
	r.shutdown(&workers, replace, hcancel)
	return runErr
}

// newIntake returns the runner's intake: nats.go pulls up to half the
// pull buffer at a time into its own buffer, which the Consume callback
// empties into the backlog at once, and pulling pauses while the other
// half waits in the backlog. The runner so holds at most the pull buffer
// (besides the messages its workers run), and every message it holds is
// in the backlog or a worker's slot, where heartbeats keep it alive.
func (r *Runner) newIntake(gone func(error)) *intake {
	batch := max(r.pullMax/2, 1)
	high := max(r.pullMax-batch, 1)
	return &intake{
		consume: func() (jetstream.ConsumeContext, error) {
			return r.cons.Consume(r.receive,
				jetstream.PullMaxMessages(batch),
				jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
					if isFatal(err) {
						gone(err)
						return
					}
					r.log.Warn("bus: consume", "err", err)
				}))
		},
		gone:    gone,
		waiting: r.backlog.len,
		high:    high,
		low:     high / 2,
	}
}

// worker processes the messages of the backlog until shutdown, or until
// its call is abandoned (it is then detached and replaced, and stops once
// the call returns).
func (r *Runner) worker(s *slot, done func()) {
	defer func() {
		if s.detached.CompareAndSwap(false, true) {
			done()
		}
	}()
	for {
		m, sinceHB, left, ok := r.backlog.pop()
		if !ok {
			return
		}
		r.intake.taken(left)
		s.carry(sinceHB)
		r.process(m, s)
		if s.detached.Load() {
			return
		}
	}
}

// shutdown stops pulling and waits for the running handlers: the messages
// of the backlog, and those the Consume callback still gets, are released
// (or handled on the cap while draining) off the workers, which finish
// their message. After the drain timeout the handlers' context is
// canceled; calls deaf to it are abandoned after HandlerTimeoutGrace
// (their messages released, their workers detached), so that shutdown is
// bounded.
//
// Releases are held until the pull subscription is closed (see releases),
// and sent before shutdown returns in any case.
func (r *Runner) shutdown(workers *sync.WaitGroup, replace func(*slot), hcancel context.CancelFunc) {
	r.stopping.Store(true)
	closed := r.intake.stop()
	close(r.quit)
	r.backlog.close()
	workers.Go(func() {
		for _, w := range r.backlog.rest() {
			r.settleStopping(w.m, int(w.sinceHB))
		}
	})
	defer r.releaseHeld() // when Closed never came (a closed connection: the Naks fail, the ack wait redelivers)
	idle := make(chan struct{})
	go func() {
		<-closed
		r.releaseHeld()
		workers.Wait()
		close(idle)
	}()
	drainTimeout := r.drainTimeout
	if r.stopNow.Load() {
		drainTimeout = 0
	}
	drain := time.NewTimer(drainTimeout)
	defer drain.Stop()
	select {
	case <-idle:
		return
	case <-drain.C:
	}
	r.log.Warn("bus: drain timeout; canceling running handlers", "timeout", drainTimeout)
	hcancel()
	for _, s := range r.workerSlots() {
		s.cancelCall()
	}
	grace := time.NewTimer(min(HandlerTimeoutGrace, r.handlerTimeout) + 100*time.Millisecond)
	defer grace.Stop()
	select {
	case <-idle:
		return
	case <-grace.C:
	}
	for _, s := range r.workerSlots() {
		if m := s.abandonNow(); m != nil {
			r.abandon(s, m, replace, true)
		}
	}
	select { // detached workers count as done; a stuck callback does not return
	case <-idle:
	case <-time.After(HandlerTimeoutGrace):
	}
}

func isFatal(err error) bool {
	return errors.Is(err, jetstream.ErrConsumerDeleted) ||
		errors.Is(err, jetstream.ErrConsumerNotFound) ||
		errors.Is(err, jetstream.ErrConnectionClosed)
}
