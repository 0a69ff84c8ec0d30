// Package upstream declares the retry contract the other packages rely on:
// a carrier type, a producer and a delay classifier. barenak learns them in
// the packages below only through the contract model's facts.
package upstream

import (
	"errors"
	"time"
)

// UnavailableError is a retry carrier.
type UnavailableError struct {
	Service string
	After   time.Duration
}

func (e *UnavailableError) Error() string             { return e.Service + " unavailable" }
func (e *UnavailableError) RetryDelay() time.Duration { return e.After }

// Unavailable is a retryable producer.
func Unavailable(service string, after time.Duration) error {
	return &UnavailableError{Service: service, After: after}
}

// Backoff is a delay classifier under a name no pattern would guess.
func Backoff(err error) (time.Duration, bool) {
	var u *UnavailableError
	if errors.As(err, &u) {
		return u.After, true
	}
	return 0, false
}

// Elapsed looks like a delay lookup but is ok for any error.
func Elapsed(err error) (time.Duration, bool) {
	if err != nil {
		return time.Second, true
	}
	return 0, false
}
