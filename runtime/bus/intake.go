package bus

import (
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// backlog holds the messages the runner was delivered and no worker has
// started yet, in order, where the watch loop sees them: each is kept
// alive with heartbeats while it waits, as a running message is. (A
// message left in nats.go's pull buffer instead, behind a callback that
// waits for a worker, has no heartbeats: with slow handlers its ack wait
// ran out there, and the server delivered it again while it still
// waited, to be handled twice.)
//
// The Consume callback pushes every message here at once, so nats.go's own
// buffer stays empty; pulling pauses while the backlog is full (see
// intake).
type backlog struct {
	mu     sync.Mutex
	cond   sync.Cond
	items  []waiting // items[head:] wait, oldest first
	head   int
	closed bool   // shutdown: no more pushes or pops; shutdown settles what is left
	tick   uint64 // the watch loop's ticks
}

type waiting struct {
	m      jetstream.Msg
	lastHB uint64 // the tick of its arrival or of its last heartbeat
}

func newBacklog() *backlog {
	b := &backlog{}
	b.cond.L = &b.mu
	return b
}

// push appends m and returns how many messages wait, or false once the
// backlog is closed (the caller then settles m itself).
func (b *backlog) push(m jetstream.Msg) (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, false
	}
	b.items = append(b.items, waiting{m: m, lastHB: b.tick})
	b.cond.Signal()
	return len(b.items) - b.head, true
}

// pop takes the oldest message, waiting for one, and returns it with the
// ticks since its last heartbeat and how many messages still wait; ok is
// false once the backlog is closed (shutdown settles what is left: see
// rest).
func (b *backlog) pop() (m jetstream.Msg, sinceHB int, left int, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.head == len(b.items) && !b.closed {
		b.cond.Wait()
	}
	if b.closed {
		return nil, 0, 0, false
	}
	w := b.items[b.head]
	b.items[b.head] = waiting{}
	b.head++
	if b.head == len(b.items) { // empty: reuse the array from the start
		b.items, b.head = b.items[:0], 0
	} else if b.head >= 64 && b.head*2 >= len(b.items) {
		n := copy(b.items, b.items[b.head:])
		clear(b.items[n:])
		b.items, b.head = b.items[:n], 0
	}
	return w.m, int(b.tick - w.lastHB), len(b.items) - b.head, true
}

// len returns how many messages wait.
func (b *backlog) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items) - b.head
}

// close ends pushing and popping: the workers stop.
func (b *backlog) close() {
	b.mu.Lock()
	b.closed = true
	b.cond.Broadcast()
	b.mu.Unlock()
}

// leftover is a message left in the backlog at shutdown.
type leftover struct {
	m       jetstream.Msg
	sinceHB uint64 // ticks since its last heartbeat
}

// rest empties the closed backlog and returns what waited in it.
func (b *backlog) rest() []leftover {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]leftover, 0, len(b.items)-b.head)
	for _, w := range b.items[b.head:] {
		out = append(out, leftover{w.m, b.tick - w.lastHB})
	}
	b.items, b.head = nil, 0
	return out
}

// due counts a tick of the watch loop and returns the waiting messages
// whose last heartbeat (or arrival) is every ticks old, marked as
// heartbeated now. every 0 means no heartbeats.
func (b *backlog) due(every int, out []jetstream.Msg) []jetstream.Msg {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tick++
	if every == 0 {
		return out
	}
	for i := b.head; i < len(b.items); i++ {
		if w := &b.items[i]; b.tick-w.lastHB >= uint64(every) {
			w.lastHB = b.tick
			out = append(out, w.m)
		}
	}
	return out
}

// intake owns the runner's pull subscription (a jetstream Consume), and
// pauses it while the backlog is full: nats.go pulls more as soon as the
// callback returns, and the callback returns at once, so the backlog is
// bounded by draining the subscription (its buffered messages still come
// in, and go to the backlog) and by starting a new one once half of the
// backlog has been taken.
//
// A drain unsubscribes the pull request, which may still be sending: a
// message the server sends it just after the unsubscribe reaches no one,
// and the server redelivers it at once (nats-server's didNotDeliver),
// counting one delivery more. That is rare (one message in a few hundred
// pauses, in the tests), and costs no handler call and no ack wait; a
// pause happens only while the workers are behind.
type intake struct {
	consume func() (jetstream.ConsumeContext, error)
	gone    func(error) // the pull subscription ended without being asked to, or could not restart
	waiting func() int  // how many messages wait in the backlog
	high    int         // pause when this many messages wait
	low     int         // resume when no more than this many wait

	mu      sync.Mutex
	cc      jetstream.ConsumeContext // the subscription pulling; nil while paused
	last    jetstream.ConsumeContext // the latest subscription, pulling or draining
	paused  bool
	closing bool // the paused subscription is still draining
	stopped bool
}

// start starts pulling.
func (in *intake) start() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.startLocked()
}

func (in *intake) startLocked() error {
	cc, err := in.consume()
	if err != nil {
		return err
	}
	in.cc, in.last, in.paused = cc, cc, false
	go in.watch(cc)
	return nil
}

// watch reports a subscription that closed while it was meant to pull (the
// consumer or the connection is gone), and resumes pulling when a paused
// one is gone and the backlog is low already.
func (in *intake) watch(cc jetstream.ConsumeContext) {
	<-cc.Closed()
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.cc == cc && !in.stopped {
		in.gone(nil)
		return
	}
	if in.last != cc {
		return
	}
	in.closing = false
	if in.paused && !in.stopped && in.waiting() <= in.low {
		if err := in.startLocked(); err != nil {
			in.gone(err)
		}
	}
}

// pushed is called by the Consume callback with the messages now waiting:
// at the high mark it pauses pulling.
func (in *intake) pushed(n int) {
	if n < in.high {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.cc == nil || in.stopped {
		return
	}
	cc := in.cc
	in.cc, in.paused, in.closing = nil, true, true
	cc.Drain()
}

// taken is called by a worker with the messages still waiting: at the
// low mark, once the paused subscription is gone, it pulls again.
func (in *intake) taken(n int) {
	if n > in.low {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.paused || in.stopped {
		return
	}
	if in.closing {
		// Still draining: a second subscription would pull on top of
		// what the first still delivers. The next taken message asks
		// again.
		select {
		case <-in.last.Closed():
			in.closing = false
		default:
			return
		}
	}
	if err := in.startLocked(); err != nil {
		in.gone(err)
	}
}

// stop stops pulling and returns a channel closed once the last pull
// subscription is gone from the server (its buffered messages handed to
// the callback).
func (in *intake) stop() <-chan struct{} {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.stopped = true
	if in.last == nil {
		done := make(chan struct{})
		close(done)
		return done
	}
	if in.cc != nil {
		in.cc.Drain()
	}
	return in.last.Closed()
}
