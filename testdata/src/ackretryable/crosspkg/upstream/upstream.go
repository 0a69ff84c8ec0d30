// Package upstream declares a carrier and a producer; ackretryable sees
// them in the packages below only through the contract model's facts.
package upstream

import "time"

// ThrottledError is a retry carrier.
type ThrottledError struct{ After time.Duration }

func (e ThrottledError) Error() string             { return "throttled" }
func (e ThrottledError) RetryDelay() time.Duration { return e.After }

// Throttle is a retryable producer.
func Throttle(after time.Duration) error { return ThrottledError{After: after} }

// Reject is not a producer.
func Reject(reason string) error { return rejected(reason) }

type rejected string

func (r rejected) Error() string { return string(r) }
