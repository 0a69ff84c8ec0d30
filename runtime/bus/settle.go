package bus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// sendKind is the acknowledgement that ends a delivery's processing.
type sendKind uint8

const (
	sendNone         sendKind = iota // nothing: the message is left for redelivery
	sendAck                          // Ack
	sendNak                          // Nak
	sendNakWithDelay                 // NakWithDelay(delay)
	sendTerm                         // Term
)

// send is the acknowledgement a decision comes to.
type send struct {
	kind  sendKind
	delay time.Duration
}

// DefaultConfirmTimeout bounds the wait for the server's answer to a
// confirmed Ack or Term (WithConfirmedSettlement).
const DefaultConfirmTimeout = 5 * time.Second

// maxUnconfirmed bounds the confirmed settlements awaiting the server's
// answer; a worker that would exceed it waits, so an unresponsive server
// slows the runner down instead of piling up goroutines.
const maxUnconfirmed = 1024

// finish sends s for m and reports ev with its outcome. Unconfirmed, the
// acknowledgement is fire-and-forget, as jetstream's Ack is: its error says
// only whether it could be sent. With WithConfirmedSettlement an Ack or
// Term is a request the server answers once it has applied it, awaited off
// the worker (the next delivery does not wait for it); ev is reported when
// the answer, or the timeout, is in. Naks stay fire-and-forget: a lost Nak
// costs a redelivery after the ack wait, which is what it asked for.
func (r *Runner) finish(m jetstream.Msg, s send, ev Event) {
	if r.confirmJS == nil || (s.kind != sendAck && s.kind != sendTerm) {
		ev.AckErr = s.fireAndForget(m)
		r.report(ev)
		return
	}
	r.confirm(m, s, ev)
}

// confirm sends s (an Ack or a Term) as a request, awaits the server's
// answer off the worker and then reports ev.
func (r *Runner) confirm(m jetstream.Msg, s send, ev Event) {
	r.unconfirmed <- struct{}{}
	r.confirming.Add(1)
	go func() {
		defer func() {
			<-r.unconfirmed
			r.confirming.Done()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), r.confirmTimeout)
		defer cancel()
		if s.kind == sendAck {
			ev.AckErr = m.DoubleAck(ctx)
		} else {
			// jetstream has no confirmed Term: the same request DoubleAck
			// makes, with the Term body. The server answers it too.
			_, ev.AckErr = r.confirmJS.Conn().RequestWithContext(ctx, m.Reply(), []byte("+TERM"))
		}
		ev.Confirmed = ev.AckErr == nil
		r.report(ev)
	}()
}

// fireAndForget sends s without waiting for the server.
func (s send) fireAndForget(m jetstream.Msg) error {
	switch s.kind {
	case sendAck:
		return m.Ack()
	case sendNak:
		return m.Nak()
	case sendNakWithDelay:
		return m.NakWithDelay(s.delay)
	case sendTerm:
		return m.Term()
	}
	return nil
}

// report logs a failed acknowledgement and hands ev to the observer.
func (r *Runner) report(ev Event) {
	if ev.AckErr != nil {
		r.log.Warn("bus: acknowledgement failed; the server will redeliver", "action", ev.Decision.Action, "seq", ev.StreamSeq, "err", ev.AckErr)
	}
	if r.observe != nil {
		r.observe(ev)
	}
}
