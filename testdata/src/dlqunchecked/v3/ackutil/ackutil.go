// Package ackutil holds settling helpers for dlqunchecked/v3/kvstore: a
// helper that always Acks the message it is given (known there through
// its facts), and one that Acks only on success.
package ackutil

import (
	"log"

	"github.com/nats-io/nats.go/jetstream"
)

// AckQuietly Acks msg and logs a failure.
func AckQuietly(msg jetstream.Msg) {
	if err := msg.Ack(); err != nil {
		log.Printf("ack %s: %v", msg.Subject(), err)
	}
}

// Finish Acks msg when err is nil.
func Finish(msg jetstream.Msg, err error) {
	if err == nil {
		_ = msg.Ack()
	}
}
