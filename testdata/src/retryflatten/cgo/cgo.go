// Package cgo uses cgo: retryflatten must analyze the Go side without
// panicking on the generated cgo declarations.
package cgo

/*
static int busy(void) { return 1; }
*/
import "C"

import (
	"errors"
	"fmt"
	"time"

	"retrykit"
)

func poll() error {
	if C.busy() != 0 {
		return retrykit.RetryAfter(errors.New("device busy"), time.Second)
	}
	return nil
}

func _() error {
	return fmt.Errorf("poll: %v", poll()) // want `retryable error poll\(\) formatted with %v`
}
