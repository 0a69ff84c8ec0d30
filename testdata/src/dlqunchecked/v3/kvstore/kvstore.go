// Package kvstore proves that dlqunchecked judges a key-value bucket's
// Put on a dead-letter field like any DLQ write (CONTRACT.md version 3),
// and that a deferred helper that always Acks (another package's, known
// through its facts) is a deferred Ack: deferred after a deferred DLQ
// write it runs first.
package kvstore

import (
	"context"
	"log"
	"time"

	"dlqunchecked/v3/ackutil"

	"github.com/nats-io/nats.go/jetstream"
)

type Invoices struct {
	js          jetstream.JetStream
	deadLetters jetstream.KeyValue
	hits        int
}

func (s *Invoices) sendDeadLetter(ctx context.Context, msg jetstream.Msg) error {
	_, err := s.js.Publish(ctx, "billing.deadletter", msg.Data())
	return err
}

// The write's results are discarded, then the message is Acked.
func (s *Invoices) _(ctx context.Context, msg jetstream.Msg) error {
	_, _ = s.deadLetters.Put(ctx, msg.Subject(), msg.Data())
	return msg.Ack() // want `Ack after the DLQ write s.deadLetters.Put whose error is not checked`
}

// A deferred Ack runs at the return after the failed write.
func (s *Invoices) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	if _, err := s.deadLetters.Put(ctx, msg.Subject(), msg.Data()); err != nil {
		log.Printf("park: %v", err)
		return // want `the deferred Ack \(running at this return\) on the failure path of the DLQ write s.deadLetters.Put`
	}
}

// Deferred after the deferred write, the helper that always Acks runs
// first (deferred calls run last in, first out).
func (s *Invoices) _(ctx context.Context, msg jetstream.Msg) {
	defer s.sendDeadLetter(ctx, msg)
	defer ackutil.AckQuietly(msg)
	s.hits++
} // want `the deferred ackutil.AckQuietly \(running at this return\) before the deferred DLQ write s.sendDeadLetter runs`

// Quiet: the helper's deferred Ack runs after a checked write; on its
// failure the message was Naked with delay first.
func (s *Invoices) _(ctx context.Context, msg jetstream.Msg) {
	defer ackutil.AckQuietly(msg)
	if err := s.sendDeadLetter(ctx, msg); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
}

// Quiet: a helper that Acks only on a nil error is not a deferred Ack.
func (s *Invoices) _(ctx context.Context, msg jetstream.Msg) {
	var err error
	defer s.sendDeadLetter(ctx, msg)
	defer ackutil.Finish(msg, err)
	s.hits++
}

// Quiet: the bucket write is checked, its failure Naks with delay, and the
// message is moved (Acked) after it.
func (s *Invoices) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := s.deadLetters.Put(ctx, msg.Subject(), msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Ack()
}

// Quiet: a read of the bucket, then a deferred Ack.
func (s *Invoices) _(ctx context.Context, msg jetstream.Msg) bool {
	if _, err := s.deadLetters.Get(ctx, msg.Subject()); err != nil {
		return false
	}
	defer ackutil.AckQuietly(msg)
	return true
}
