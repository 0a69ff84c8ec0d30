// Package settle holds settling helpers of every condition (CONTRACT.md,
// "Effects of a helper"): one that always Acks, one that Acks any error it
// is given without looking at it, one that Acks only a nil error, and
// helpers that classify first.
package settle

import (
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Done always Acks.
func Done(msg jetstream.Msg, reason string) {
	_ = msg.Ack()
}

// Drop Acks a failed message without looking at the error.
func Drop(msg jetstream.Msg, err error) {
	if err != nil {
		_ = msg.Ack()
	}
}

// Finish Acks on success and retries later otherwise.
func Finish(msg jetstream.Msg, err error) error {
	if err == nil {
		return msg.Ack()
	}
	return msg.NakWithDelay(5 * time.Second)
}

type retryDelayer interface{ RetryDelay() time.Duration }

// Classify Acks on success, retries a retryable error after its delay and
// Acks (after logging) a permanent one: it classifies first.
func Classify(msg jetstream.Msg, err error) error {
	if err == nil {
		return msg.Ack()
	}
	var rd retryDelayer
	if errors.As(err, &rd) {
		return msg.NakWithDelay(rd.RetryDelay())
	}
	return msg.Ack()
}

// Retry bare-Naks whatever it is given.
func Retry(msg jetstream.Msg) {
	_ = msg.Nak()
}

// RetryErr bare-Naks a non-nil error without looking at it.
func RetryErr(msg jetstream.Msg, err error) {
	if err != nil {
		_ = msg.Nak()
	}
}

// RetryClassified Naks with the error's delay, and bare only for a zero
// delay: a correct helper.
func RetryClassified(msg jetstream.Msg, err error) error {
	var rd retryDelayer
	if errors.As(err, &rd) {
		if d := rd.RetryDelay(); d > 0 {
			return msg.NakWithDelay(d)
		}
		return msg.Nak()
	}
	return msg.Term()
}

// Action is what SettleAs does with a message.
type Action int

const (
	AckIt Action = iota
	RetryIt
)

// SettleAs Acks or retries by the action it is given: its Ack is not
// "always".
func SettleAs(msg jetstream.Msg, a Action) error {
	switch a {
	case AckIt:
		return msg.Ack()
	default:
		return msg.NakWithDelay(time.Second)
	}
}
