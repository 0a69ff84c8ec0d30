// Package testfuncs proves that test functions are out of scope: the
// same defect is quiet in Test, Benchmark and Fuzz functions and
// TestMain, and reported in a test file's helpers.
package testfuncs

import (
	"context"
)

type Worker struct {
	work func(context.Context, []byte) error
}
