// Package quiet is a module whose .retrylint.yaml disables retryflatten:
// the flattening package plain reports stays quiet here.
package quiet

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
		return fmt.Errorf("reserve %s: %v", sku, err)
	}
	return nil
}

func Restock(sku string) error {
	if err := restock(sku); err != nil {
		return fmt.Errorf("restock %s: %v", sku, err)
	}
	return nil
}
