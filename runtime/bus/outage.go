package bus

import (
	"sync"
	"sync/atomic"
	"time"
)

// OutagePauseAfter is a threshold for WithOutagePause: the number of DLQ
// writes in a row, of any messages, that fail before the runner pauses
// pulling.
const OutagePauseAfter = 3

// outage is the DLQ's health as the runner sees it. While writes keep
// failing, every dead-letter candidate comes back after a delay that
// doubles per failed write of its own, re-runs nothing (its verdict is
// kept) but takes a delivery, and the other messages are handled as
// usual: a DLQ outage only parks the messages that need the DLQ.
//
// With WithOutagePause(n), a breaker: after n failures in a row the
// runner stops taking deliveries for a while, which stops pulling (the
// backlog fills and pulling pauses). The pause starts at the
// dead-letter retry delay and doubles with each further failure, up to
// maxPause; a successful write ends the outage. The runner probes with
// real writes: the first candidate after a pause tries its write again.
// It trades the traffic of every message for fewer refused writes, so it
// is off by default: with 10% failing messages and a 40 s outage it cut
// good throughput by over 90%.
type outage struct {
	after    int // failures in a row that start a pause; 0: never
	mu       sync.Mutex
	failures int       // DLQ writes that failed in a row
	until    time.Time // no delivery is taken before then
	// active is set once a pause started, until a write succeeds: the
	// check every delivery makes costs an atomic load, not a lock and a
	// clock reading.
	active atomic.Bool
}

// failed records a failed write at now and returns the pause it starts
// (0 below the threshold).
func (o *outage) failed(now time.Time, base, ceiling time.Duration) time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failures++
	if o.after == 0 || o.failures < o.after {
		return 0
	}
	o.active.Store(true)
	pause := min(base<<min(o.failures-o.after, 16), ceiling)
	o.until = now.Add(pause)
	return pause
}

// succeeded ends the outage.
func (o *outage) succeeded() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failures, o.until = 0, time.Time{}
	o.active.Store(false)
}

// pausedUntil returns the end of the current pause, or the zero time.
func (o *outage) pausedUntil(now time.Time) time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	if now.Before(o.until) {
		return o.until
	}
	return time.Time{}
}

// maxPause caps a pause: the largest redelivery delay, and the heartbeat
// interval, so that a probe write comes at least that often. (The delivery
// that waits out a pause and those behind it in the backlog are kept alive
// by heartbeats.)
func (r *Runner) maxPause() time.Duration {
	if r.heartbeat > 0 {
		return min(r.cfg.MaxNakDelay, r.heartbeat)
	}
	return r.cfg.MaxNakDelay
}

// waitOutage holds the delivery about to be taken while a DLQ outage
// pauses pulling, or until shutdown.
func (r *Runner) waitOutage() {
	if !r.outage.active.Load() {
		return
	}
	until := r.outage.pausedUntil(time.Now())
	if until.IsZero() {
		return
	}
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.quit:
	}
}
