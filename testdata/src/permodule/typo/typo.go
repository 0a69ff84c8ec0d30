// Package typo is a module whose .retrylint.yaml misspells a check: the
// configuration error is one diagnostic, at the package clause, and no
// check runs (the flattening stays unreported until the file is fixed).
package typo // want `retrylint configuration: .*permodule/typo/.retrylint.yaml:2: .*retryflaten.*: no retrylint check runs on this package until the file is fixed`

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
