package bus

import (
	"bytes"
	"context"
	"errors"
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
// An Ack is sent again when its answer does not come within the timeout
// (confirmSends times in all), and every settlement still waiting is sent
// again after the client reconnects, since it can be lost with the old
// connection, except those published during the disconnect: nats.go
// buffers those and sends them once the client is back, maybe long after
// their timeout. A Term is not sent again on a timeout alone: the server
// announces every Term it gets (a MSG_TERMINATED advisory, also for a
// message it no longer holds), so a Term sent again for nothing is one
// advisory too many, and a lost Term costs only an ack wait (the
// redelivery writes the DLQ entry again, which stores nothing, and
// terminates), while a lost Ack runs the handler again. While the client
// is disconnected no settlement times out: its answer cannot come. A
// second answer is ignored: the server answers an Ack or a Term of a
// message it no longer holds as it answers the first, and the settlement
// is reported once. Only when confirmSends timeouts pass while connected,
// when the connection closes for good, or when the runner exits (a last
// timeout) is a settlement reported unanswered (context.DeadlineExceeded,
// nats.ErrConnectionClosed).
// A sweep that runs every quarter of the timeout does the timing.
type confirmer struct {
	nc      *nats.Conn
	timeout time.Duration
	report  func(Event)
	slots   chan struct{}  // bounds the settlements awaiting an answer
	waiting sync.WaitGroup // those settlements

	mu      sync.Mutex
	prefix  string // the reply subjects' prefix: the subscription's subject without its "*"
	next    uint64
	pending map[uint64]*awaited
	closeBy time.Time // set by close: settlements still waiting then fail
	sub     *nats.Subscription
	stop    chan struct{} // closed by close: the sweep ends
	swept   sync.WaitGroup
}

// confirmSends is how many timeouts a settlement waits while the client is
// connected before it is reported unanswered; an Ack is sent again after
// each but the last.
const confirmSends = 3

// awaited is a settlement awaiting the server's answer.
type awaited struct {
	to       string // the delivery's ack subject
	body     []byte
	ev       Event
	deadline time.Time // of the current send
	sends    int       // timeouts begun since the client last (re)connected
	buffered bool      // published while the client was reconnecting, in nats.go's reconnect buffer
	epoch    uint64    // the client's reconnect count then
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
		pending: make(map[uint64]*awaited),
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
	// Published while the client reconnects, a settlement waits in
	// nats.go's reconnect buffer, which the reconnect sends: it is not sent
	// again then.
	connected := c.nc.IsConnected()
	var epoch uint64
	if !connected {
		epoch = c.nc.Stats().Reconnects
	}
	c.mu.Lock()
	c.next++
	id := c.next
	c.pending[id] = &awaited{to: to, body: body, ev: ev, deadline: time.Now().Add(c.timeout), sends: 1, buffered: !connected, epoch: epoch}
	c.mu.Unlock()
	if to == "" {
		c.settle(id, jetstream.ErrMsgNoReply)
		return
	}
	switch err := c.publish(id, to, body); {
	case errors.Is(err, nats.ErrConnectionClosed):
		c.settle(id, err)
	case err != nil:
		// Not buffered (a full reconnect buffer): sent again after the
		// reconnect.
		c.mu.Lock()
		if a, ok := c.pending[id]; ok {
			a.buffered = false
		}
		c.mu.Unlock()
	}
}

// publish sends a settlement with its reply subject.
func (c *confirmer) publish(id uint64, to string, body []byte) error {
	return c.nc.PublishRequest(to, c.prefix+strconv.FormatUint(id, 36), body)
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

// resend is a settlement to send again.
type resend struct {
	id   uint64
	to   string
	body []byte
}

// sweep sends again the settlements whose answer is overdue, or reports
// them unanswered (see confirmer), until close.
func (c *confirmer) sweep() {
	t := time.NewTicker(max(c.timeout/4, time.Millisecond))
	defer t.Stop()
	reconnects := c.nc.Stats().Reconnects
	var (
		again  []resend
		failed []uint64
	)
	for {
		select {
		case <-c.stop:
			return
		case now := <-t.C:
			again, failed = again[:0], failed[:0]
			closed := c.nc.IsClosed()
			connected := c.nc.IsConnected()
			n := c.nc.Stats().Reconnects
			reconnected := n != reconnects && connected
			before := reconnects
			if reconnected {
				reconnects = n
			}
			c.mu.Lock()
			closing := !c.closeBy.IsZero() && now.After(c.closeBy)
			for id, a := range c.pending {
				switch {
				case closed || closing:
					failed = append(failed, id)
				case reconnected && a.buffered && a.epoch == before:
					// In the reconnect buffer, which this reconnect sent.
					a.sends, a.deadline, a.buffered = 1, now.Add(c.timeout), false
				case reconnected:
					// What was sent before may be lost with the old
					// connection: it goes again.
					a.sends, a.deadline, a.buffered = 1, now.Add(c.timeout), false
					again = append(again, resend{id, a.to, a.body})
				case !connected || !now.After(a.deadline):
				case a.sends < confirmSends:
					a.sends++
					a.deadline = now.Add(c.timeout)
					if bytes.Equal(a.body, ackBody) {
						again = append(again, resend{id, a.to, a.body})
					}
				default:
					failed = append(failed, id)
				}
			}
			c.mu.Unlock()
			for _, r := range again {
				_ = c.publish(r.id, r.to, r.body) // a failure: the next sweep
			}
			err := error(context.DeadlineExceeded)
			if closed {
				err = nats.ErrConnectionClosed
			}
			for _, id := range failed {
				c.settle(id, err)
			}
		}
	}
}

// close waits until every settlement sent is reported (each is bounded
// by one more timeout, connected or not), then ends the sweep and the
// subscription.
func (c *confirmer) close() {
	c.mu.Lock()
	c.closeBy = time.Now().Add(c.timeout)
	c.mu.Unlock()
	c.waiting.Wait()
	close(c.stop)
	c.swept.Wait()
	_ = c.sub.Unsubscribe()
}
