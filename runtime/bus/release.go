package bus

import (
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// releases holds the messages released at shutdown (a Nak for another
// instance) until the runner's pull request is gone from the server.
//
// A Nak sent while the draining pull subscription still has interest on
// the server brings the message straight back to it: it is released again,
// and again, each time costing a delivery (MaxDeliver, and the runner's
// cap), up to about 30 times in a drain. ConsumeContext.Closed fires once
// nats.go has sent the UNSUB, flushed it (the server has applied it) and
// handed every buffered message to the callback, so a Nak sent after it
// goes to another instance's pull request, or waits for the next one: a
// release costs the one delivery the message already had.
type releases struct {
	mu   sync.Mutex
	open bool // the pull request is gone: release at once
	held []heldRelease
}

type heldRelease struct {
	m  jetstream.Msg
	ev Event
}

// hold keeps a release for later and reports whether it did (false once
// the pull request is gone: release it now).
func (rs *releases) hold(m jetstream.Msg, ev Event) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.open {
		return false
	}
	rs.held = append(rs.held, heldRelease{m, ev})
	return true
}

// take ends holding and returns what was held.
func (rs *releases) take() []heldRelease {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.open = true
	h := rs.held
	rs.held = nil
	return h
}

// releaseHeld sends the releases held so far, and every later one at once.
func (r *Runner) releaseHeld() {
	for _, h := range r.releases.take() {
		h.ev.AckErr = h.m.Nak()
		r.report(h.ev)
	}
}
