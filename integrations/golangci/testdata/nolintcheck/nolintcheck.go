// Package nolintcheck is the fixture integrations/golangci/check.sh lints
// with retryflatten enabled as a linter of its own (check.percheck.yml),
// so that //nolint:retryflatten names a linter. It is under testdata/, so
// `./...` leaves it out.
//
// The script finds the lines by their "fixture:" comments:
//   - "fixture: reported": a retryflatten finding, with a related location
//     on another line of this file, reported as one retryflatten issue;
//   - "fixture: used": a //nolint:retryflatten that silences the same
//     finding, related location included; nolintlint sees it used;
//   - "fixture: unused": a //nolint:retryflatten on a line retryflatten has
//     nothing to say about; nolintlint must report it.
package nolintcheck

import (
	"fmt"
	"time"
)

// busyError is a retry carrier.
type busyError struct{ delay time.Duration }

func (e *busyError) Error() string             { return "busy" }
func (e *busyError) RetryDelay() time.Duration { return e.delay }

func reserve(sku string) error {
	if sku == "" {
		return &busyError{delay: time.Second}
	}
	return nil
}

// describe flattens err with %v: the related location of the findings at
// its calls.
func describe(op string, err error) error {
	return fmt.Errorf("%s: %v", op, err)
}

// Reported flattens a retryable error through describe.
func Reported(sku string) error {
	if err := reserve(sku); err != nil {
		return describe("reserve "+sku, err) // fixture: reported
	}
	return nil
}

// Silenced does too, under //nolint naming the check.
func Silenced(sku string) error {
	if err := reserve(sku); err != nil {
		return describe("reserve "+sku, err) //nolint:retryflatten // fixture: used
	}
	return nil
}

// Clean wraps with %w: nothing to silence.
func Clean(sku string) error {
	if err := reserve(sku); err != nil {
		return fmt.Errorf("reserve %s: %w", sku, err) //nolint:retryflatten // fixture: unused
	}
	return nil
}
