package bus

import (
	"context"
	"sync"
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
