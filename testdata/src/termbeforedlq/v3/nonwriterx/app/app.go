// Package app calls the parking helpers of another package: DeadLetter is
// no DLQ write (its fact says so), so a Term before it is not "Term before
// the DLQ write"; Park is one, and a Term before it is reported.
package app

import (
	"termbeforedlq/v3/nonwriterx/parking"

	"github.com/nats-io/nats.go/jetstream"
)

type Consumer struct {
	pub parking.Publisher
}

func (c *Consumer) _(msg jetstream.Msg) error {
	if len(msg.Data()) == 0 {
		_ = msg.Term()
		return parking.DeadLetter(msg, "empty")
	}
	return msg.Ack()
}

func (c *Consumer) _(msg jetstream.Msg) error {
	if len(msg.Data()) == 0 {
		_ = msg.Term() // want `Term before the DLQ write parking.Park`
		return parking.Park(c.pub, msg)
	}
	return msg.Ack()
}
