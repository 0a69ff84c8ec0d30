// Package retrykit is a small retry-classification library in the shape of
// retrylint's runtime: analyzer tests use it as "user code" that produces
// retry carriers.
package retrykit

import (
	"errors"
	"time"
)

// Retryable is the interface a bus layer looks for with errors.As.
type Retryable interface {
	error
	RetryDelay() time.Duration
}

type retryError struct {
	err   error
	delay time.Duration
}

func (e *retryError) Error() string             { return e.err.Error() }
func (e *retryError) Unwrap() error             { return e.err }
func (e *retryError) RetryDelay() time.Duration { return e.delay }

// RetryAfter marks err as transient: retry after delay.
func RetryAfter(err error, delay time.Duration) error {
	if err == nil {
		err = errors.New("retry requested")
	}
	if delay < 0 {
		delay = 0
	}
	return &retryError{err: err, delay: delay}
}

// TransientError is a concrete carrier type.
type TransientError struct {
	Op    string
	Delay time.Duration
}

func (e *TransientError) Error() string             { return e.Op + ": transient" }
func (e *TransientError) RetryDelay() time.Duration { return e.Delay }

// RetryDelay returns the delay of the first carrier in err's chain.
func RetryDelay(err error) (time.Duration, bool) {
	var r interface{ RetryDelay() time.Duration }
	if errors.As(err, &r) {
		return r.RetryDelay(), true
	}
	return 0, false
}

// IsRetryable reports whether err carries retry intent.
func IsRetryable(err error) bool {
	var r interface{ RetryDelay() time.Duration }
	return errors.As(err, &r)
}
