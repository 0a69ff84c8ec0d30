package dlq

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// HeaderHandback is set, to the entry's ID, on a dead letter handed back
// to its stream (HandBack): the message carries the entry, not the
// original message.
const HeaderHandback = "Dlq-Handback"

// HandBack publishes e, a dead letter whose DLQ write failed where the
// server will not redeliver the message (its consumer's MaxDeliver is
// reached), back to e's stream on e's subject, as the DLQ would store it:
// the evidence headers, the original headers under HeaderOrigPrefix, the
// payload. HeaderReplayFor names e.Consumer, so that the runners of the
// stream's other consumers ack the copy, and HeaderHandback marks it: the
// runner of e.Consumer that receives it stores the entry it carries (read
// with HandedBack) without running its handler, and terminates the copy.
// The entry keeps e's ID, so that a write of the original that did land
// after all is not stored twice.
//
// from is the stream sequence of the message handed back (e.StreamSeq, or
// that of a copy handed back again): the publish's Nats-Msg-Id,
// "dlq-handback.<ID>.<from>", keeps a repeated hand-back of one delivery
// single within the stream's duplicate window. It returns the stream's
// ack, which names the copy's sequence.
func HandBack(ctx context.Context, js jetstream.JetStream, e *Entry, from uint64) (*jetstream.PubAck, error) {
	if e.Subject == "" || e.Consumer == "" {
		return nil, fmt.Errorf("dlq: hand back %s: no subject or consumer", e.ID())
	}
	m := nats.NewMsg(e.Subject)
	m.Header = e.header()
	m.Header[HeaderReplayFor] = []string{e.Consumer}
	m.Header[HeaderHandback] = []string{e.ID()}
	m.Data = e.Data
	ack, err := js.PublishMsg(ctx, m, jetstream.WithMsgID("dlq-handback."+e.ID()+"."+strconv.FormatUint(from, 10)))
	if err != nil {
		return nil, fmt.Errorf("dlq: hand back %s to %s: %w", e.ID(), e.Subject, err)
	}
	if ack.Stream != e.Stream {
		return ack, fmt.Errorf("dlq: hand back %s: subject %s is stored by stream %s, not %s", e.ID(), e.Subject, ack.Stream, e.Stream)
	}
	return ack, nil
}

// HandBack is the package function HandBack on the store's connection.
// bus runners use it, through their DeadLetterWriter, to hand back a dead
// letter they cannot store and the server will not redeliver.
func (s *Store) HandBack(ctx context.Context, e *Entry, from uint64) (*jetstream.PubAck, error) {
	return HandBack(ctx, s.js, e, from)
}

// HandedBack returns the entry a message handed back by HandBack carries,
// or nil for any other message (no HeaderHandback). A message that has
// the header but does not decode, or whose entry does not have the ID the
// header names, is an error wrapping ErrNotEntry.
func HandedBack(h nats.Header, data []byte) (*Entry, error) {
	id := h.Get(HeaderHandback)
	if id == "" {
		return nil, nil
	}
	e, err := Decode(h, data, 0, time.Time{})
	if err != nil {
		return nil, err
	}
	if e.ID() != id {
		return nil, fmt.Errorf("%w: handed back as %s, decodes as %s", ErrNotEntry, id, e.ID())
	}
	return e, nil
}
