package bus

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// slot is a worker's message in flight, seen by the heartbeat loop.
type slot struct {
	mu    sync.Mutex
	msg   jetstream.Msg
	since time.Time // start, or the last heartbeat
}

func (s *slot) begin(m jetstream.Msg) {
	s.mu.Lock()
	s.msg, s.since = m, time.Now()
	s.mu.Unlock()
}

func (s *slot) end() {
	s.mu.Lock()
	s.msg = nil
	s.mu.Unlock()
}

// beat sends InProgress for the slot's message if it has been held for the
// interval since its start or last heartbeat.
func (s *slot) beat(now time.Time, interval time.Duration) (jetstream.Msg, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.msg == nil || now.Sub(s.since) < interval {
		return nil, nil
	}
	s.since = now
	return s.msg, s.msg.InProgress()
}

// heartbeats keeps long-running messages from hitting their ack wait: every
// half interval it sends InProgress for each message held for an interval.
// The cost on the message path is one uncontended lock per message.
func (r *Runner) heartbeats(ctx context.Context) {
	t := time.NewTicker(max(r.heartbeat/2, 5*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			for i := range r.slots {
				if m, err := r.slots[i].beat(now, r.heartbeat); err != nil {
					r.log.Debug("bus: heartbeat", "subject", m.Subject(), "err", err)
				}
			}
		}
	}
}
