package bus

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// confirmer sends confirmed settlements (WithConfirmedSettlement) and
// matches the server's answers to them. Each settlement is published with
// a reply subject under one wildcard subscription of the runner's own, so a
// confirmation costs a map entry. A request per settlement (jetstream's
// DoubleAck) costs a goroutine, a timer and a reply channel each, and
// measured a third of the runner's fire-and-forget throughput; this keeps
// it near a bare consume-and-ack loop (bus's BenchmarkConsume).
//
// An answer that does not come within the timeout is reported as
// context.DeadlineExceeded by a sweep that runs every quarter of the
// timeout, so a settlement waits between one and 1.25 timeouts.
type confirmer struct {
	nc      *nats.Conn
	timeout time.Duration
	report  func(Event)
	slots   chan struct{}  // bounds the settlements awaiting an answer
	waiting sync.WaitGroup // those settlements

	mu      sync.Mutex
	prefix  string // the reply subjects' prefix: the subscription's subject without its "*"
	next    uint64
	pending map[uint64]awaited
	sub     *nats.Subscription
	stop    chan struct{} // closed by close: the sweep ends
	swept   sync.WaitGroup
}

// awaited is a settlement awaiting the server's answer.
type awaited struct {
	ev       Event
	deadline time.Time
}

// ackBody and termBody are the bodies of the acknowledgements confirmed.
var (
	ackBody  = []byte("+ACK")
	termBody = []byte("+TERM")
)

// newConfirmer subscribes to the replies on nc and starts the sweep.
func newConfirmer(nc *nats.Conn, timeout time.Duration, limit int, report func(Event)) (*confirmer, error) {
	c := &confirmer{
		nc:      nc,
		timeout: timeout,
		report:  report,
		slots:   make(chan struct{}, limit),
		prefix:  nc.NewInbox() + ".",
		pending: make(map[uint64]awaited),
		stop:    make(chan struct{}),
	}
	sub, err := nc.Subscribe(c.prefix+"*", c.answer)
	if err != nil {
		return nil, err
	}
	c.sub = sub
	c.swept.Go(c.sweep)
	return c, nil
}

// send publishes body (an Ack or a Term) to a delivery's ack subject, to,
// with a reply subject of its own; ev is reported once the server answers, or the timeout passes. It
// waits while the settlements awaiting an answer are at the limit, so an
// unresponsive server slows the runner down instead of piling them up.
func (c *confirmer) send(to string, body []byte, ev Event) {
	c.slots <- struct{}{}
	c.waiting.Add(1)
	c.mu.Lock()
	c.next++
	id := c.next
	c.pending[id] = awaited{ev: ev, deadline: time.Now().Add(c.timeout)}
	c.mu.Unlock()
	var err error = jetstream.ErrMsgNoReply
	if to != "" {
		err = c.nc.PublishRequest(to, c.prefix+strconv.FormatUint(id, 36), body)
	}
	if err != nil {
		c.settle(id, err)
	}
}

// answer is the subscription's handler: the server applied the
// acknowledgement, or no one listens on its subject any more (the
// consumer is gone: a 503 status).
func (c *confirmer) answer(msg *nats.Msg) {
	id, err := strconv.ParseUint(msg.Subject[len(c.prefix):], 36, 64)
	if err != nil {
		return
	}
	var answerErr error
	if len(msg.Data) == 0 && msg.Header.Get("Status") == "503" { // nats.go's test for no responders
		answerErr = nats.ErrNoResponders
	}
	c.settle(id, answerErr)
}

// settle reports the settlement id with err, unless it was reported
// already (an answer after its timeout).
func (c *confirmer) settle(id uint64, err error) {
	c.mu.Lock()
	a, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		return
	}
	a.ev.AckErr = err
	a.ev.Confirmed = err == nil
	<-c.slots
	c.report(a.ev)
	c.waiting.Done()
}

// sweep reports the settlements whose answer is overdue, until close.
func (c *confirmer) sweep() {
	t := time.NewTicker(max(c.timeout/4, time.Millisecond))
	defer t.Stop()
	var overdue []uint64
	for {
		select {
		case <-c.stop:
			return
		case now := <-t.C:
			overdue = overdue[:0]
			c.mu.Lock()
			for id, a := range c.pending {
				if now.After(a.deadline) {
					overdue = append(overdue, id)
				}
			}
			c.mu.Unlock()
			for _, id := range overdue {
				c.settle(id, context.DeadlineExceeded)
			}
		}
	}
}

// close waits until every settlement sent is reported (each is bounded by
// the timeout), then ends the sweep and the subscription.
func (c *confirmer) close() {
	c.waiting.Wait()
	close(c.stop)
	c.swept.Wait()
	_ = c.sub.Unsubscribe()
}
