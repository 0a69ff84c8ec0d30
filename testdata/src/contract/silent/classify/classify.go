// Package classify is a retry helper that names no message: its
// classifier exports a fact all the same (contract.Silence).
package classify

import "errors"

// IsTemporary reports whether err says the failure will pass.
func IsTemporary(err error) bool {
	var t interface{ Temporary() bool }
	return errors.As(err, &t) && t.Temporary()
}

// ShouldRetry reports whether to try again after err: a retry predicate
// (a classifier fact), since IsTemporary is named like one.
func ShouldRetry(err error) bool {
	return err != nil && IsTemporary(err)
}

// Timeout is a failure that passes.
type Timeout struct{}

func (Timeout) Error() string   { return "timeout" }
func (Timeout) Temporary() bool { return true }
