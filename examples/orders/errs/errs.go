// Package errs holds the order service's error types. TransientError is a
// retry carrier: the bus layer finds its delay with errors.As.
package errs

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalidOrder is permanent: the order can never be processed.
var ErrInvalidOrder = errors.New("invalid order")

// TransientError says: try again after Delay.
type TransientError struct {
	Op    string
	Err   error
	Delay time.Duration
}

func (e *TransientError) Error() string             { return fmt.Sprintf("%s: %v", e.Op, e.Err) }
func (e *TransientError) Unwrap() error             { return e.Err }
func (e *TransientError) RetryDelay() time.Duration { return e.Delay }

// Transient wraps err with a retry delay.
func Transient(op string, err error, delay time.Duration) error {
	return &TransientError{Op: op, Err: err, Delay: delay}
}

// HandlerError decorates a failure with the handler's name for logs. It has
// no Unwrap method: whatever it wraps is invisible to errors.As.
type HandlerError struct {
	Handler string
	Err     error
}

func (e *HandlerError) Error() string { return e.Handler + ": " + e.Err.Error() }

// RetryDelay returns the delay carried by err's chain.
func RetryDelay(err error) (time.Duration, bool) {
	var r interface{ RetryDelay() time.Duration }
	if errors.As(err, &r) {
		return r.RetryDelay(), true
	}
	return 0, false
}
