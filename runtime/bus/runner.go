package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	beforeTerm     func(*dlq.Entry) // test hook: between the DLQ write and Term

	started  atomic.Bool
	stopping atomic.Bool
	hctx     context.Context    // handlers' context, canceled after the drain timeout
	work     chan jetstream.Msg // to the workers; never closed (see receive)
	quit     chan struct{}      // closed when Run returns: workers stop, late deliveries are released
	slots    []slot
	fails    failures
	calls    calls    // handler calls in flight, for naming the stuck ones
	verdicts verdicts // dead letters whose DLQ write failed, by stream sequence
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
		r.cfg.BackOff = append([]time.Duration(nil), cc.BackOff...)
		for _, b := range cc.BackOff {
			ackWait = min(ackWait, b)
		}
	}
	if r.heartbeat == 0 && ackWait > 0 {
		r.heartbeat = max(ackWait/3, 10*time.Millisecond)
	}
	r.log = r.log.With("stream", r.stream, "consumer", r.consumer)
	if r.serverMax == 1 && r.js == nil {
		r.log.Info("bus: consumer MaxDeliver 1 leaves no redelivery; a DLQ write that fails is retried in process, and a crash during it is only caught with WithAdvisories",
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
// ErrConsumerGone when the consumer or the connection is gone. Its exit is
// bounded: a handler that ignores its canceled context is abandoned after
// HandlerTimeoutGrace, and the error, wrapping ErrHandlersStuck, names it.
func (r *Runner) Run(ctx context.Context) (err error) {
	if !r.started.CompareAndSwap(false, true) {
		return ErrRunning
	}
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	r.hctx = hctx
	r.slots = make([]slot, r.concurrency)

	// Workers and background loops stop, in this order, when Run returns.
	bgctx, bgcancel := context.WithCancel(hctx)
	var wg sync.WaitGroup
	r.quit = make(chan struct{})
	defer func() { // runs last, once the workers are gone
		if stuck := r.calls.running(time.Now()); len(stuck) > 0 {
			r.log.Error("bus: handler calls still running at exit", "calls", stuck)
			err = errors.Join(err, fmt.Errorf("%w: %s", ErrHandlersStuck, strings.Join(stuck, "; ")))
		}
	}()
	defer func() {
		// The work channel is not closed: the Consume callback may still
		// be blocked sending on it (the connection closed while every
		// worker was busy). It sees quit instead and releases its message.
		close(r.quit)
		bgcancel()
		wg.Wait()
	}()
	if r.concurrency > 1 {
		r.work = make(chan jetstream.Msg)
		for i := range r.concurrency {
			wg.Go(func() {
				for {
					select {
					case m := <-r.work:
						r.process(m, &r.slots[i])
					case <-r.quit:
						return
					}
				}
			})
		}
	}
	if r.heartbeat > 0 {
		wg.Go(func() { r.heartbeats(bgctx) })
	}
	if r.js != nil {
		stop, err := r.captureAdvisories(bgctx)
		if err != nil {
			return err
		}
		defer func() { bgcancel(); stop() }()
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
	defer drain.Stop()
	select {
	case <-cc.Closed():
	case <-drain.C:
		r.log.Warn("bus: drain timeout; canceling running handlers", "timeout", r.drainTimeout)
		hcancel()
		<-cc.Closed()
	}
	return runErr
}

func isFatal(err error) bool {
	return errors.Is(err, jetstream.ErrConsumerDeleted) ||
		errors.Is(err, jetstream.ErrConsumerNotFound) ||
		errors.Is(err, jetstream.ErrConnectionClosed)
}
