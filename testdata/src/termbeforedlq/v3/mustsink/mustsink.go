// Package mustsink holds dead-letter writers for termbeforedlq/v3/
// unconfirmed, known there through their facts: one that returns nothing
// but panics when its write fails (a synchronous writer: its normal
// return means the evidence is stored), and one that logs the failure
// and returns (swallowing).
package mustsink

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"
)

type Sink struct {
	js jetstream.JetStream
}

// MustDeadLetter stores msg in the dead-letter stream or panics.
func (s *Sink) MustDeadLetter(ctx context.Context, msg jetstream.Msg) {
	if _, err := s.js.Publish(ctx, "orders.DLQ", msg.Data()); err != nil {
		panic(err)
	}
}

// DeadLetterQuietly stores msg in the dead-letter stream and logs a
// failure.
func (s *Sink) DeadLetterQuietly(ctx context.Context, msg jetstream.Msg) {
	if _, err := s.js.Publish(ctx, "orders.DLQ", msg.Data()); err != nil {
		log.Printf("dead-letter %s: %v", msg.Subject(), err)
	}
}
