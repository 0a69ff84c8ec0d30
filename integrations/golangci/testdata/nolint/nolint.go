// Package nolint is the fixture integrations/golangci/check.sh lints with
// nolintlint (allow-unused: false) next to retrylint. It is under testdata/,
// so `./...` leaves it out.
//
// The script finds the lines by their "fixture:" comments:
//   - "fixture: used": a //nolint:retrylint that silences a retrylint finding
//     (the same shape as Reported, which is reported);
//   - "fixture: unused": a //nolint:retrylint on a line retrylint has nothing
//     to say about; nolintlint must report it;
//   - "fixture: used, related": a //nolint:retrylint that silences a finding
//     with a related location on another line of this file (describe's
//     %v): nothing of the finding may be left, nor reported unused;
//   - "fixture: related": the same finding unsilenced (ReportedViaHelper):
//     one issue, its related location in the message.
package nolint

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

// Reported flattens a retryable error; retrylint reports it.
func Reported(sku string) error {
	if err := reserve(sku); err != nil {
		return fmt.Errorf("reserve %s: %v", sku, err)
	}
	return nil
}

// Silenced flattens it too, under a directive.
func Silenced(sku string) error {
	if err := reserve(sku); err != nil {
		return fmt.Errorf("reserve %s: %v", sku, err) //nolint:retrylint // fixture: used
	}
	return nil
}

// Clean wraps it with %w: nothing to silence.
func Clean(sku string) error {
	if err := reserve(sku); err != nil {
		return fmt.Errorf("reserve %s: %w", sku, err) //nolint:retrylint // fixture: unused
	}
	return nil
}

// describe formats an operation's failure for the logs: it flattens err
// with %v, which is the related location of the findings at its calls.
func describe(op string, err error) error {
	return fmt.Errorf("%s: %v", op, err)
}

// ReportedViaHelper flattens through describe; retrylint reports the call.
func ReportedViaHelper(sku string) error {
	if err := reserve(sku); err != nil {
		return describe("reserve "+sku, err) // fixture: related
	}
	return nil
}

// SilencedViaHelper does too, under a directive that must silence the
// finding and its related location.
func SilencedViaHelper(sku string) error {
	if err := reserve(sku); err != nil {
		return describe("reserve "+sku, err) //nolint:retrylint // fixture: used, related
	}
	return nil
}
