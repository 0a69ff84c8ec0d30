package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Msg is the handler's view of a message: it can read it but not
// acknowledge it. Acknowledging is the runner's job, so that no handler can
// Ack on an error path or Term before the DLQ write. jetstream.Msg
// implements it.
type Msg interface {
	Subject() string
	Data() []byte
	Headers() nats.Header
	Metadata() (*jetstream.MsgMetadata, error)
}

// Handler processes one message. It returns nil on success; otherwise its
// error says what happens to the message (see package retry and Decide):
// an error made with retry.RetryAfter is redelivered after its delay, one
// made with retry.Transient after the backoff policy's delay, one made with
// Undecodable goes through the poison threshold, Snooze asks for a later
// delivery that is not a failure, an error a class policy takes follows
// it, and any other error is dead-lettered (or retried, when
// WellKnownTransient takes it). The context is canceled when the handler
// timeout passes and when the drain timeout expires at shutdown; it
// carries the delivery's Attempt (AttemptFromContext).
type Handler func(ctx context.Context, msg Msg) error

// ErrUndecodable is wrapped by every DecodeError.
var ErrUndecodable = errors.New("bus: undecodable payload")

// DecodeError reports a payload that cannot be decoded. Its chain holds
// ErrUndecodable and the decoder's error.
type DecodeError struct {
	Err error
}

// Undecodable marks err as a decoding failure of the payload. A nil err
// becomes ErrUndecodable.
func Undecodable(err error) error {
	if err == nil {
		err = ErrUndecodable
	}
	return &DecodeError{Err: err}
}

// Error returns the decoder's error text.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("%v: %v", ErrUndecodable, e.Err)
}

// Unwrap returns ErrUndecodable and the decoder's error.
func (e *DecodeError) Unwrap() []error { return []error{ErrUndecodable, e.Err} }

// Decode returns a Handler that decodes the payload with decode and passes
// the value to h. A decode error is reported as undecodable.
func Decode[T any](decode func(data []byte) (T, error), h func(ctx context.Context, v T, msg Msg) error) Handler {
	return func(ctx context.Context, msg Msg) error {
		v, err := decode(msg.Data())
		if err != nil {
			return Undecodable(err)
		}
		return h(ctx, v, msg)
	}
}

// JSON returns a Handler that decodes a JSON payload into a T.
func JSON[T any](h func(ctx context.Context, v T, msg Msg) error) Handler {
	return Decode(func(data []byte) (T, error) {
		var v T
		err := json.Unmarshal(data, &v)
		return v, err
	}, h)
}

// PanicError is the error of a handler that panicked. It carries no retry
// intent: the message is dead-lettered with the panic value and stack as
// evidence.
type PanicError struct {
	Value any
	Stack []byte
}

// Error returns the panic value.
func (e *PanicError) Error() string { return fmt.Sprintf("bus: handler panic: %v", e.Value) }

// Unwrap returns the panic value if it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Permanent reports true: a panic is a bug, never retried whatever its value
// wraps.
func (e *PanicError) Permanent() bool { return true }

// TimeoutError is the error of a handler call that outlived the handler
// timeout (WithHandlerTimeout). It is transient: the message is retried
// after the backoff policy's delay, or dead-lettered on the last delivery.
type TimeoutError struct {
	After     time.Duration // the handler timeout
	Abandoned bool          // the call had not returned within the grace period and still runs
	Err       error         // what the handler returned, if it returned
}

// Error names the timeout and what the handler returned.
func (e *TimeoutError) Error() string {
	switch {
	case e.Abandoned:
		return fmt.Sprintf("bus: handler timed out after %v and did not return; abandoned", e.After)
	case e.Err != nil:
		return fmt.Sprintf("bus: handler timed out after %v: %v", e.After, e.Err)
	}
	return fmt.Sprintf("bus: handler timed out after %v", e.After)
}

// Unwrap returns what the handler returned.
func (e *TimeoutError) Unwrap() error { return e.Err }

// Retryable reports true: a call that ran out of time may succeed on
// another delivery.
func (e *TimeoutError) Retryable() bool { return true }
