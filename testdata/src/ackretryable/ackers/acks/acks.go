// Package acks holds helpers written against the narrowest interfaces
// of ack methods (Acker, Naker): their parameters are messages for the
// helpers' effects (contract version 3), exported as facts. Closer, which
// has a method that is no ack method, is not.
package acks

import (
	"log"
	"time"
)

// Acker is the one method a helper needs to acknowledge.
type Acker interface{ Ack() error }

// Naker redelivers.
type Naker interface {
	Nak() error
	NakWithDelay(d time.Duration) error
}

// AckCloser acknowledges and closes: Close is no ack method.
type AckCloser interface {
	Ack() error
	Close() error
}

// Ack acknowledges a, logging a failure.
func Ack(a Acker) {
	if err := a.Ack(); err != nil {
		log.Printf("ack: %v", err)
	}
}

// Retry asks for a delayed redelivery.
func Retry(n Naker, d time.Duration) { _ = n.NakWithDelay(d) }

// Finish acknowledges and closes.
func Finish(a AckCloser) {
	_ = a.Ack()
	_ = a.Close()
}
