package bus

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// slot is a worker's message in flight, seen by the watch loop. The
// message path only swaps the message and bumps a generation under an
// uncontended lock; it reads no clock. The watch loop counts its ticks to
// send heartbeats, to time the handler out and to abandon a call deaf to
// its canceled context.
type slot struct {
	mu     sync.Mutex
	msg    jetstream.Msg
	gen    uint64                  // incremented for every message
	cancel context.CancelCauseFunc // cancels the handler call in flight, nil between calls
	// Set for the current message by the watch loop, or by shutdown.
	timedOut  bool // its handler timed out: no more heartbeats
	abandoned bool // settled off the worker; the worker must not

	// Ticks since the last heartbeat of the next message, which waited in
	// the backlog: set by its worker before it begins the message, taken
	// by the watch loop when it first sees it.
	carried int

	// Owned by the watch loop.
	seenGen  uint64
	sinceHB  int // ticks since the message started or its last heartbeat
	age      int // ticks since the message started
	detached atomic.Bool
}

func (s *slot) begin(m jetstream.Msg) {
	s.mu.Lock()
	s.msg = m
	s.gen++
	s.timedOut, s.abandoned = false, false
	s.mu.Unlock()
}

// carry sets the ticks since the last heartbeat of the next message the
// slot begins (it waited that long in the backlog), so that its first
// heartbeat comes on time.
func (s *slot) carry(ticks int) {
	s.mu.Lock()
	s.carried = ticks
	s.mu.Unlock()
}

// calling records the cancel function of the handler call in flight (nil
// once it returned) and reports whether the call was abandoned meanwhile.
func (s *slot) calling(cancel context.CancelCauseFunc) (abandoned bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancel = cancel
	return s.abandoned
}

func (s *slot) end() {
	s.mu.Lock()
	s.msg, s.cancel = nil, nil
	s.mu.Unlock()
}

// abandonNow marks the call in flight abandoned and returns its message,
// or nil when there is none (or it is abandoned already).
func (s *slot) abandonNow() jetstream.Msg {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.msg == nil || s.cancel == nil || s.abandoned {
		return nil
	}
	s.abandoned = true
	return s.msg
}

// cancelCall cancels the handler call in flight, if any.
func (s *slot) cancelCall() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel(nil)
	}
	s.mu.Unlock()
}

// watchTicks are the watch loop's thresholds, in ticks.
type watchTicks struct {
	heartbeat int // 0: no heartbeats
	timeout   int
	abandon   int
}

// tick is called by the watch loop at every tick. It sends a heartbeat
// (InProgress) for a message held for a heartbeat interval since it started
// or since its last heartbeat, until its handler times out, and it returns
// the message to abandon once the grace period after the timeout has
// passed too.
func (s *slot) tick(w watchTicks) (hb jetstream.Msg, hbErr error, abandon jetstream.Msg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.msg == nil {
		s.age, s.sinceHB = 0, 0
		return nil, nil, nil
	}
	if s.gen != s.seenGen {
		s.seenGen, s.age, s.sinceHB = s.gen, 1, 1+s.carried
		s.carried = 0
	} else {
		s.age++
		s.sinceHB++
		if s.cancel != nil && s.age > w.timeout && !s.timedOut {
			s.timedOut = true // heartbeats stop
			s.cancel(context.DeadlineExceeded)
		}
		if s.cancel != nil && !s.abandoned && s.age > w.abandon {
			s.abandoned = true
			return nil, nil, s.msg
		}
	}
	if w.heartbeat == 0 || s.timedOut || s.sinceHB < w.heartbeat {
		return nil, nil, nil
	}
	s.sinceHB = 1
	return s.msg, s.msg.InProgress(), nil
}

// watchEvery returns the watch loop's tick and thresholds: half the
// heartbeat interval (a heartbeat after three ticks that saw the message,
// at least one interval), finer when the handler timeout needs it.
func (r *Runner) watchEvery() (time.Duration, watchTicks) {
	grace := min(HandlerTimeoutGrace, r.handlerTimeout)
	every := r.handlerTimeout / 4
	if r.heartbeat > 0 {
		every = min(every, r.heartbeat/2)
	}
	every = max(every, 5*time.Millisecond)
	ticks := func(d time.Duration) int { return int((d + every - 1) / every) }
	w := watchTicks{timeout: ticks(r.handlerTimeout), abandon: ticks(r.handlerTimeout + grace)}
	if r.heartbeat > 0 {
		w.heartbeat = ticks(r.heartbeat) + 1
	}
	return every, w
}

// watch keeps long-running messages from hitting their ack wait, and
// bounds handler calls: every tick it looks at each worker's message (see
// slot.tick). A call it abandons is settled here, off the worker, which is
// replaced when the runner has workers.
func (r *Runner) watch(ctx context.Context, replace func(*slot)) {
	every, w := r.watchEvery()
	t := time.NewTicker(every)
	defer t.Stop()
	var waiting []jetstream.Msg
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if r.backlog != nil {
				waiting = r.backlog.due(w.heartbeat, waiting[:0])
				for i, m := range waiting {
					r.heartbeatWaiting(m)
					waiting[i] = nil
				}
			}
			for _, s := range r.workerSlots() {
				m, err, abandon := s.tick(w)
				if err != nil {
					r.log.Debug("bus: heartbeat", "subject", m.Subject(), "err", err)
				}
				if m != nil && r.onHeartbeat != nil {
					_, seq, _ := ackInfo(m.Reply())
					r.onHeartbeat(Heartbeat{Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(), StreamSeq: seq, Err: err})
				}
				if abandon != nil {
					r.abandon(s, abandon, replace, false)
				}
			}
		}
	}
}

// heartbeatWaiting sends a heartbeat for m, which waits in the backlog.
func (r *Runner) heartbeatWaiting(m jetstream.Msg) {
	err := m.InProgress()
	if err != nil {
		r.log.Debug("bus: heartbeat", "subject", m.Subject(), "err", err)
	}
	if r.onHeartbeat != nil {
		_, seq, _ := ackInfo(m.Reply())
		r.onHeartbeat(Heartbeat{Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(), StreamSeq: seq, Err: err})
	}
}

// heartbeats is watch without worker replacement, for tests.
func (r *Runner) heartbeats(ctx context.Context) { r.watch(ctx, nil) }

// workerSlots returns the slots of the current workers.
func (r *Runner) workerSlots() []*slot {
	r.slotsMu.Lock()
	defer r.slotsMu.Unlock()
	return slices.Clone(r.slots)
}

// abandon settles the message of a handler call deaf to its canceled
// context as a timeout (or releases it at shutdown), registers the call as
// stuck, and has its worker replaced. The watch loop settles off its own
// goroutine; shutdown waits for it.
func (r *Runner) abandon(s *slot, m jetstream.Msg, replace func(*slot), wait bool) {
	n, seq, _ := ackInfo(m.Reply())
	r.log.Error("bus: handler did not return after its context was canceled; abandoned", "seq", seq,
		"subject", m.Subject(), "timeout", r.handlerTimeout)
	r.calls.abandon(s, m.Subject(), seq, time.Now())
	if replace != nil {
		replace(s)
	}
	var err error = &TimeoutError{After: r.handlerTimeout, Abandoned: true}
	if r.hctx.Err() != nil {
		err = fmt.Errorf("bus: handler abandoned at shutdown: %w", context.Canceled)
	}
	in := Input{NumDelivered: n, Ran: true, Stopping: r.stopping.Load(), Err: err}
	if wait {
		r.settle(m, nil, seq, in, 0, false)
		return
	}
	go r.settle(m, nil, seq, in, 0, false)
}

// calls is the set of abandoned handler calls that still run. Only an
// abandoned call enters it, so the message path takes no lock for it.
type calls struct {
	mu  sync.Mutex
	set map[*slot]callInfo
}

type callInfo struct {
	subject string
	seq     uint64
	at      time.Time // when it was abandoned
}

func (c *calls) abandon(s *slot, subject string, seq uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set == nil {
		c.set = make(map[*slot]callInfo)
	}
	c.set[s] = callInfo{subject: subject, seq: seq, at: now}
}

// returned is called by a worker whose abandoned call returned.
func (c *calls) returned(s *slot) {
	c.mu.Lock()
	delete(c.set, s)
	c.mu.Unlock()
}

// running describes the abandoned calls still running, oldest first.
func (c *calls) running(now time.Time) []string {
	c.mu.Lock()
	infos := make([]callInfo, 0, len(c.set))
	for _, ci := range c.set {
		infos = append(infos, ci)
	}
	c.mu.Unlock()
	slices.SortFunc(infos, func(a, b callInfo) int { return a.at.Compare(b.at) })
	out := make([]string, len(infos))
	for i, ci := range infos {
		out[i] = fmt.Sprintf("%s (stream seq %d, abandoned %v ago)", ci.subject, ci.seq, now.Sub(ci.at).Round(time.Millisecond))
	}
	return out
}
