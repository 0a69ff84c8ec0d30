// Package middle wraps upstream's producer in a client method and a
// wrapper type with Unwrap: both stay producers for callers elsewhere.
package middle

import (
	"context"
	"time"

	"ackretryable/crosspkg/upstream"
)

type OpError struct {
	Op  string
	Err error
}

func (e *OpError) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *OpError) Unwrap() error { return e.Err }

type Mailer struct{ sent int }

// Send is a retryable producer through an Unwrap-able wrapper.
func (m *Mailer) Send(ctx context.Context, to string) error {
	if m.sent > 100 {
		return &OpError{Op: "send", Err: upstream.Throttle(time.Minute)}
	}
	m.sent++
	return nil
}

// Validate is not a producer.
func (m *Mailer) Validate(to string) error {
	if to == "" {
		return upstream.Reject("empty recipient")
	}
	return nil
}
