// Package testfuncs proves that test functions are out of scope: the
// same defect is quiet in Test, Benchmark and Fuzz functions and TestMain,
// and reported in a test file's helpers, in Example functions and in a
// function whose name only starts like a test's.
package testfuncs

import (
	"github.com/nats-io/nats.go/jetstream"
)

type Worker struct {
	js jetstream.JetStream
}
