// Package testfuncs proves that test functions are out of scope: the
// same defect is quiet in Test, Benchmark and Fuzz functions and TestMain,
// and reported in a test file's helpers, in Example functions and in a
// function whose name only starts like a test's.
package testfuncs

import (
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

func produce() error {
	return retrykit.RetryAfter(errors.New("busy"), time.Second)
}

var _ jetstream.Msg
