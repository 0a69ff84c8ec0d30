package bus

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
)

// HandBacker is implemented by a DeadLetterWriter that can hand a dead
// letter back to its stream (*dlq.Store does, and so do the writers of
// bus/otelbus that wrap one; see dlq.HandBack). A runner hands back a dead
// letter whose DLQ write fails on the server's last delivery (the
// consumer's MaxDeliver) when it stops: the server will not deliver that
// message again, so a Nak would lose it. A writer that cannot hand back
// returns an error wrapping errors.ErrUnsupported; the runner then uses
// the JetStream of WithAdvisories or WithConfirmedSettlement, if any.
type HandBacker interface {
	HandBack(ctx context.Context, e *dlq.Entry, from uint64) (*jetstream.PubAck, error)
}

// ClassHandedBack is the class of a delivery acked because its dead letter
// was handed back to the stream (see HandBacker): the copy carries it on.
const ClassHandedBack Class = "handed_back"

// handBack hands back to the stream the dead letter v of m, whose write
// failed on the server's last delivery as the runner stops, and returns
// the Ack of m: the copy carries the dead letter on, and a runner of this
// consumer stores it without running the handler. When it cannot hand the
// dead letter back, it leaves m unsettled and says so: only a
// MAX_DELIVERIES advisory (WithAdvisories, on a runner still running)
// then catches it.
func (r *Runner) handBack(m jetstream.Msg, md *jetstream.MsgMetadata, v verdict, writeErr error) (Decision, error, send) {
	seq := md.Sequence.Stream
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.hctx), r.dlqTimeout)
	defer cancel()
	err := errors.ErrUnsupported
	var ack *jetstream.PubAck
	for _, hb := range r.handBackers() {
		if ack, err = hb.HandBack(ctx, v.entry, seq); !errors.Is(err, errors.ErrUnsupported) {
			break
		}
	}
	if err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			err = errors.New("no JetStream to hand it back through (give the runner a *dlq.Store, WithAdvisories or WithConfirmedSettlement)")
		}
		r.log.Error("bus: dead-letter write failed on the server's last delivery as the runner stops, and the message could not be handed back to its stream: "+
			"the server will not deliver it again; only a MAX_DELIVERIES advisory listener (WithAdvisories) catches it",
			"seq", seq, "subject", m.Subject(), "class", v.decision.Class, "err", writeErr, "hand_back_err", err)
		return v.decision, errors.Join(writeErr, fmt.Errorf("bus: hand back: %w", err)), send{}
	}
	r.verdicts.take(seq)
	r.forget(seq, md.Timestamp.UnixNano(), md.NumDelivered)
	r.log.Warn("bus: dead-letter write failed on the server's last delivery as the runner stops; handed the dead letter back to its stream",
		"seq", seq, "subject", m.Subject(), "class", v.decision.Class, "copy_seq", ack.Sequence, "err", writeErr)
	return Decision{Action: ActionAck, Class: ClassHandedBack,
		Reason: fmt.Sprintf("dead letter (%s) handed back to the stream as seq %d: its DLQ write failed on the server's last delivery", v.decision.Class, ack.Sequence),
	}, writeErr, send{kind: sendAck}
}

// handBackers returns what the runner can hand dead letters back
// through: its writer, then the JetStream of its options.
func (r *Runner) handBackers() []HandBacker {
	var out []HandBacker
	if hb, ok := r.dlq.(HandBacker); ok {
		out = append(out, hb)
	}
	for _, js := range []jetstream.JetStream{r.js, r.confirmJS} {
		if js != nil {
			out = append(out, jsHandBack{js})
		}
	}
	return out
}

// jsHandBack hands back with a JetStream context.
type jsHandBack struct{ js jetstream.JetStream }

func (h jsHandBack) HandBack(ctx context.Context, e *dlq.Entry, from uint64) (*jetstream.PubAck, error) {
	return dlq.HandBack(ctx, h.js, e, from)
}

// handedBack settles a copy that carries a handed-back dead letter, e:
// it stores e, without running the handler, and terminates the copy; a
// failed write is retried as any dead letter's (a later delivery, or, on
// the copy's own last delivery at shutdown, another hand-back).
func (r *Runner) handedBack(m jetstream.Msg, s *slot, seq, n uint64, e *dlq.Entry) {
	md, err := m.Metadata()
	if err != nil {
		r.log.Error("bus: message without JetStream metadata; left for redelivery", "subject", m.Subject(), "err", err)
		return
	}
	s.begin(m) // heartbeats while the write is retried
	defer s.end()
	cause := &recordedError{text: e.Error, types: e.ErrorTypes}
	v, ok := r.verdicts.take(seq)
	if !ok {
		v = verdict{
			decision: Decision{Action: ActionDeadLetter, Class: Class(e.Class), Reason: "handed back to the stream: " + e.Error},
			entry:    e,
			cause:    cause,
			retried:  true,
			handback: true,
		}
	}
	in := Input{NumDelivered: n, Ran: true, Stopping: r.stopping.Load(), Err: cause, Now: r.now(), Stored: md.Timestamp, HistoryExact: true}
	ev := Event{Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(), StreamSeq: seq, NumDelivered: n, Err: cause}
	var snd send
	ev.Decision, ev.DeadLetterErr, snd = r.writeThenTerm(m, md, in, v)
	r.finish(m, snd, ev)
}
