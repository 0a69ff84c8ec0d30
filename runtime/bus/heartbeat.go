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

// slot is a worker's message in flight, seen by the heartbeat loop. The
// message path only swaps the message and bumps a generation under an
// uncontended lock; it reads no clock.
type slot struct {
	mu  sync.Mutex
	msg jetstream.Msg
	gen uint64 // incremented for every message

	// Owned by the heartbeat loop.
	seenGen uint64
	ticks   int // consecutive ticks that saw seenGen in flight
}

func (s *slot) begin(m jetstream.Msg) {
	s.mu.Lock()
	s.msg = m
	s.gen++
	s.mu.Unlock()
}

func (s *slot) end() {
	s.mu.Lock()
	s.msg = nil
	s.mu.Unlock()
}

// tick is called every half heartbeat interval. A message seen in flight at
// three consecutive ticks has been held for at least one interval (and at
// most one and a half): it gets an InProgress, and the count starts over.
func (s *slot) tick() (jetstream.Msg, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.msg == nil {
		s.ticks = 0
		return nil, nil
	}
	if s.gen != s.seenGen {
		s.seenGen, s.ticks = s.gen, 1
		return nil, nil
	}
	s.ticks++
	if s.ticks < 3 {
		return nil, nil
	}
	s.ticks = 1
	return s.msg, s.msg.InProgress()
}

// heartbeats keeps long-running messages from hitting their ack wait: every
// half interval it looks at each worker's message, and sends InProgress for
// those held for an interval since they started or since their last
// heartbeat. The interval is a third of the ack wait, so a heartbeat always
// comes at least half an ack wait before the deadline.
func (r *Runner) heartbeats(ctx context.Context) {
	t := time.NewTicker(max(r.heartbeat/2, 5*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for i := range r.slots {
				if m, err := r.slots[i].tick(); err != nil {
					r.log.Debug("bus: heartbeat", "subject", m.Subject(), "err", err)
				}
			}
		}
	}
}

// calls is the set of abandoned handler calls that still run. Only an
// abandoned call enters it, so the message path takes no lock and reads no
// clock for it.
type calls struct {
	mu  sync.Mutex
	set map[*call]time.Time // when each was abandoned
}

// call is one handler call running on a goroutine of its own.
type call struct {
	subject string
	seq     uint64
	done    chan error
	state   atomic.Int32 // callRunning, then callReturned or callAbandoned
}

const (
	callRunning int32 = iota
	callReturned
	callAbandoned
)

// returned is called by the call's goroutine once the handler returned.
func (c *calls) returned(cl *call) {
	if !cl.state.CompareAndSwap(callRunning, callReturned) {
		c.mu.Lock() // abandoned: abandon registered it before its swap
		delete(c.set, cl)
		c.mu.Unlock()
	}
}

// abandon registers cl as abandoned, unless it returned meanwhile; it
// reports whether it did.
func (c *calls) abandon(cl *call, now time.Time) bool {
	c.mu.Lock()
	if c.set == nil {
		c.set = make(map[*call]time.Time)
	}
	c.set[cl] = now
	c.mu.Unlock()
	if cl.state.CompareAndSwap(callRunning, callAbandoned) {
		return true
	}
	c.mu.Lock()
	delete(c.set, cl)
	c.mu.Unlock()
	return false
}

// running describes the abandoned calls still running, oldest first.
func (c *calls) running(now time.Time) []string {
	type entry struct {
		cl *call
		at time.Time
	}
	c.mu.Lock()
	entries := make([]entry, 0, len(c.set))
	for cl, at := range c.set {
		entries = append(entries, entry{cl, at})
	}
	c.mu.Unlock()
	slices.SortFunc(entries, func(a, b entry) int { return a.at.Compare(b.at) })
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = fmt.Sprintf("%s (stream seq %d, abandoned %v ago)", e.cl.subject, e.cl.seq, now.Sub(e.at).Round(time.Millisecond))
	}
	return out
}
