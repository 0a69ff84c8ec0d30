// Package plain has no .retrylint.yaml of its own (nor above it, up to
// the repository): the defaults apply. Its busyError carries a retry
// delay through RetryDelay, the default carrier method; slowError's
// Backoff is nothing to the defaults.
package plain

import (
	"fmt"
	"time"
)

type busyError struct{ delay time.Duration }

func (e *busyError) Error() string             { return "busy" }
func (e *busyError) RetryDelay() time.Duration { return e.delay }

type slowError struct{ delay time.Duration }

func (e *slowError) Error() string          { return "slow" }
func (e *slowError) Backoff() time.Duration { return e.delay }

func reserve(sku string) error {
	if sku == "" {
		return &busyError{delay: time.Second}
	}
	return nil
}

func restock(sku string) error {
	if sku == "" {
		return &slowError{delay: time.Second}
	}
	return nil
}

func Reserve(sku string) error {
	if err := reserve(sku); err != nil {
		return fmt.Errorf("reserve %s: %v", sku, err) // want `retryable error err formatted with %v loses its retry delay`
	}
	return nil
}

func Restock(sku string) error {
	if err := restock(sku); err != nil {
		return fmt.Errorf("restock %s: %v", sku, err)
	}
	return nil
}
