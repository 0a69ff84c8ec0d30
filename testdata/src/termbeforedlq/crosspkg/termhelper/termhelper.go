// Package termhelper holds may-Term helpers, as services write them: they
// map a handler outcome to the broker and terminate on a non-retriable
// status. The consumer package finds them through the contract model's
// facts ("may Term param N").
package termhelper

import (
	"context"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"termbeforedlq/crosspkg/dlqhelper"
)

// Settle acknowledges by HTTP status: 2xx acks, 4xx terminates, anything
// else is retried later.
func Settle(msg jetstream.Msg, status int) error {
	switch {
	case status < 300:
		return msg.Ack()
	case status < 500:
		return msg.Term()
	}
	return msg.NakWithDelay(30 * time.Second)
}

// Reject terminates a legacy message with no further processing.
func Reject(reason string, msg *nats.Msg) error {
	return Drop(msg)
}

// Drop terminates a legacy message.
func Drop(msg *nats.Msg) error { return msg.Term() }

// ParkAndTerm dead-letters, checks, and only then terminates: judged here,
// a Term only at its call sites.
func ParkAndTerm(ctx context.Context, p *dlqhelper.Publisher, msg jetstream.Msg) error {
	if err := p.Park(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// StatusOf maps an error to an HTTP status.
func StatusOf(err error) int {
	if err != nil {
		return http.StatusUnprocessableEntity
	}
	return http.StatusOK
}
