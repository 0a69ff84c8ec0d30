// Package sink proves which functions the contract model infers to write a
// dead-letter queue ("writes DLQ") and to Term a message parameter ("may
// Term param N"), and that DLQ-looking names alone make neither: option
// constructors, status setters, subject helpers, constructors and closers
// stay without facts.
package sink

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Writer is a dead-letter store behind an interface, as services write it
// for tests.
type Writer interface {
	Write(ctx context.Context, subject string, data []byte) error
	Close() error
}

// Sink dead-letters order messages.
type Sink struct {
	js     jetstream.JetStream
	nc     *nats.Conn
	stream string
	dlq    Writer
	// OnDeadLetter is called with every message given up on.
	OnDeadLetter func(ctx context.Context, data []byte) error
}

// Option configures a Sink.
type Option func(*Sink)

// Park publishes the message to the DLQ subject.
func (s *Sink) Park(ctx context.Context, msg jetstream.Msg) error { // want Park:"writes DLQ"
	_, err := s.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

// ParkFormatted builds the subject with Sprintf: its format's constant part
// names the DLQ.
func (s *Sink) ParkFormatted(ctx context.Context, msg jetstream.Msg) error { // want ParkFormatted:"writes DLQ"
	subject := fmt.Sprintf("%s.dead-letter", s.stream)
	_, err := s.js.Publish(ctx, subject, msg.Data())
	return err
}

// ParkConcat concatenates the DLQ suffix.
func (s *Sink) ParkConcat(msg *nats.Msg) error { // want ParkConcat:"writes DLQ"
	return s.nc.Publish(msg.Subject+".dlq", msg.Data)
}

// ParkMsg sets the subject on a new message, legacy API.
func (s *Sink) ParkMsg(msg *nats.Msg) error { // want ParkMsg:"writes DLQ"
	dm := nats.NewMsg("orders.DLQ")
	dm.Data = msg.Data
	return s.nc.PublishMsg(dm)
}

// ParkMsgSubject assigns the subject after building the message.
func (s *Sink) ParkMsgSubject(ctx context.Context, msg jetstream.Msg) error { // want ParkMsgSubject:"writes DLQ"
	dm := &nats.Msg{Data: msg.Data(), Header: msg.Headers()}
	dm.Subject = "payments.deadletter"
	_, err := s.js.PublishMsg(ctx, dm)
	return err
}

// ParkLiteral publishes a message literal.
func (s *Sink) ParkLiteral(ctx context.Context, data []byte) error { // want ParkLiteral:"writes DLQ"
	_, err := s.js.PublishMsgAsync(&nats.Msg{Subject: "orders.DLQ", Data: data})
	return err
}

// Store writes through a field named dlq: any method on it writes.
func (s *Sink) Store(ctx context.Context, msg jetstream.Msg) error { // want Store:"writes DLQ"
	return s.dlq.Write(ctx, msg.Subject(), msg.Data())
}

// Hook calls the OnDeadLetter hook field.
func (s *Sink) Hook(ctx context.Context, msg jetstream.Msg) error { // want Hook:"writes DLQ"
	return s.OnDeadLetter(ctx, msg.Data())
}

// Archive returns nothing, but makes a DLQ write on some path.
func (s *Sink) Archive(ctx context.Context, msg jetstream.Msg) { // want Archive:"writes DLQ"
	if len(msg.Data()) == 0 {
		return
	}
	_ = s.Park(ctx, msg)
}

// Background writes in a goroutine, still a write.
func (s *Sink) Background(ctx context.Context, msg jetstream.Msg) { // want Background:"writes DLQ"
	go func() { _ = s.Store(ctx, msg) }()
}

// Quarantine writes a DLQ table no pattern can see; the directive says so.
//
//retrylint:dlq
func Quarantine(ctx context.Context, data []byte) error { // want Quarantine:"writes DLQ"
	return nil
}

// ParkAndTerm dead-letters, checks, and only then terminates.
func (s *Sink) ParkAndTerm(ctx context.Context, msg jetstream.Msg) error { // want ParkAndTerm:"writes DLQ" ParkAndTerm:"may Term param 1"
	if err := s.Park(ctx, msg); err != nil {
		return msg.NakWithDelay(5e9)
	}
	return msg.Term()
}

// Reject terminates the message with a reason.
func Reject(msg jetstream.Msg, reason string) error { // want Reject:"may Term param 0"
	return msg.TermWithReason(reason)
}

// Finish Terms on one path, legacy API, second parameter.
func Finish(ctx context.Context, msg *nats.Msg, permanent bool) error { // want Finish:"may Term param 1"
	if permanent {
		return msg.Term()
	}
	return msg.Nak()
}

// Drop Terms through another helper.
func Drop(msg jetstream.Msg) { // want Drop:"may Term param 0"
	_ = Reject(msg, "malformed")
}

// Terminate is generic over the handler-side interface.
func Terminate[M handlerMsg](msg M) error { // want Terminate:"may Term param 0"
	return msg.Term()
}

// handlerMsg is the handler-side message interface.
type handlerMsg interface {
	Ack() error
	Term() error
}

// Not writers, not Terms.

// WithDeadLetterSink configures; it returns no error.
func WithDeadLetterSink(url string) Option { return func(*Sink) {} }

// MarkDeadLetterSinkReady sets a status.
func (s *Sink) MarkDeadLetterSinkReady() {}

// dlqSubject computes a subject.
func (s *Sink) dlqSubject() string { return s.stream + ".DLQ" }

// NewDLQWriter builds a writer: a constructor, whatever its name.
func NewDLQWriter(url string) (Writer, error) { return nil, nil }

// EnsureDLQStream creates the stream: configuration, not a write.
func (s *Sink) EnsureDLQStream(ctx context.Context) error {
	_, err := s.js.CreateStream(ctx, jetstream.StreamConfig{Name: "DLQ"})
	return err
}

// Retry publishes to a retry subject, not a DLQ.
func (s *Sink) Retry(ctx context.Context, msg jetstream.Msg) error {
	_, err := s.js.Publish(ctx, "orders.retry", msg.Data())
	return err
}

// Shutdown closes the DLQ writer: closing writes nothing.
func (s *Sink) Shutdown() error {
	s.MarkDeadLetterSinkReady()
	_ = s.dlqSubject()
	return s.dlq.Close()
}

// Listen registers a callback that writes the DLQ: the callback runs later,
// so Listen itself writes nothing.
func (s *Sink) Listen() error {
	_, err := s.nc.Subscribe("orders.*", func(m *nats.Msg) {
		_ = s.nc.Publish("orders.DLQ", m.Data)
	})
	return err
}

// AckOnly settles without Term: its effect is done, not terminate.
func AckOnly(msg jetstream.Msg) error { return msg.Ack() } // want AckOnly:"may Ack param 0"

// Later Terms in a callback it never calls.
func Later(msg jetstream.Msg) func() error {
	return func() error { return msg.Term() }
}
