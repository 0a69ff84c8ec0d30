package bus

import (
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

// DefaultConfirmTimeout is how long the runner waits, while connected,
// for the server's answer to a confirmed Ack or Term
// (WithConfirmedSettlement) before it sends an Ack again; after three
// timeouts it reports either unanswered.
const DefaultConfirmTimeout = 5 * time.Second

// maxUnconfirmed bounds the confirmed settlements awaiting the server's
// answer; a worker that would exceed it waits, so an unresponsive server
// slows the runner down instead of piling up settlements.
const maxUnconfirmed = 1024

// finish sends s for m and reports ev with its outcome. Unconfirmed, the
// acknowledgement is fire-and-forget, as jetstream's Ack is: its error says
// only whether it could be sent. With WithConfirmedSettlement an Ack or
// Term is answered by the server once it has applied it, awaited off the
// worker (the next delivery does not wait for it); ev is reported when the
// answer, or the timeout, is in. Naks stay fire-and-forget: a lost Nak
// costs a redelivery after the ack wait, which is what it asked for.
//
// A release at shutdown is held until the pull request is gone (see
// releases).
func (r *Runner) finish(m jetstream.Msg, s send, ev Event) {
	if s.kind == sendNak && ev.Decision.Class == ClassShutdown && r.releases.hold(m, ev) {
		return
	}
	switch {
	case r.confirms != nil && s.kind == sendAck:
		r.confirms.send(m.Reply(), ackBody, ev)
	case r.confirms != nil && s.kind == sendTerm:
		r.confirms.send(m.Reply(), termBody, ev)
	default:
		ev.AckErr = s.fireAndForget(m)
		r.report(ev)
	}
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
