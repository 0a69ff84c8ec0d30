// Package suppress proves the suppression directives: //retrylint:ignore
// with a reason and //nolint:retrylint, trailing or on the line above. A
// plain comment does not exempt.
package suppress

import (
	"errors"
	"fmt"
	"time"

	"retrykit"
)

func produce() error {
	return retrykit.RetryAfter(errors.New("x"), time.Second)
}

func _() error {
	return fmt.Errorf("a: %v", produce()) //retrylint:ignore the caller retries on its own schedule
}

func _() error {
	//retrylint:ignore the message is shown to operators verbatim
	return fmt.Errorf("b: %v", produce())
}

func _() error {
	return fmt.Errorf("c: %v", produce()) //nolint:retrylint // legacy API
}

func _() error {
	//nolint:errcheck,retrylint
	return fmt.Errorf("d: %v", produce())
}

func _() error {
	// deliberately flattened: comments do not exempt
	return fmt.Errorf("e: %v", produce()) // want `formatted with %v`
}

func _() error {
	//nolint:errcheck
	return fmt.Errorf("f: %v", produce()) // want `formatted with %v`
}

func _() error {
	x := 1 //retrylint:ignore trailing on another line covers only that line
	_ = x
	return fmt.Errorf("g: %v", produce()) // want `formatted with %v`
}
