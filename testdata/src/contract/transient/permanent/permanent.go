// Package permanent proves where the contract model's transient-path
// analysis says an error was classified as having no retry intent
// (PathFacts.NoIntent): the failing side of an exact retry classification
// of a non-nil error, on every path, with no errors.Is or type switch
// identifying it on any. The probe reports N:err (with @origin when every
// path agrees on the classification) or "-".
package permanent

import (
	"errors"
	"time"

	"contract/transient/classify"
)

func probe() {}

type retryDelayer interface{ RetryDelay() time.Duration }

var ErrNotFound = errors.New("not found")

type NotFoundError struct{ Key string }

func (e *NotFoundError) Error() string { return "not found: " + e.Key }

func work() error { return nil }

func _() {
	if err := work(); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			probe() // want `^-$`
			return
		}
		probe() // want `^N:err@errors.As$`
	}
}

func _() {
	if err := work(); err != nil {
		if _, ok := classify.RetryDelay(err); !ok {
			probe() // want `^N:err@classify.RetryDelay$`
		}
	}
}

// The error may be nil on the !ok side: not known to be permanent.
func _() {
	err := work()
	if _, ok := classify.RetryDelay(err); !ok {
		probe() // want `^-$`
	}
}

// Identified by errors.Is on some path: a decision about that error.
func _() {
	if err := work(); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			return
		}
		if errors.Is(err, ErrNotFound) {
			probe() // want `^-$`
		}
		probe() // want `^-$`
	}
}

// A type switch on a named type identifies it.
func _() {
	if err := work(); err != nil {
		if _, ok := classify.RetryDelay(err); ok {
			return
		}
		switch err.(type) {
		case *NotFoundError:
			probe() // want `^-$`
		default:
			probe() // want `^N:err@classify.RetryDelay$`
		}
	}
}

// Reassigned: the classification was of the old value.
func _() {
	err := work()
	if err != nil {
		if _, ok := classify.RetryDelay(err); !ok {
			err = work()
			if err != nil {
				probe() // want `^-$`
			}
		}
	}
}

// A predicate known only by its name: the code decided.
func _() {
	if err := work(); err != nil {
		if !isTransient(err) {
			probe() // want `^N:err@isTransient$`
		}
	}
}

// A type assertion looks at the top of the chain only: not a decision.
func _() {
	if err := work(); err != nil {
		if _, ok := err.(retryDelayer); !ok {
			probe() // want `^-$`
		}
	}
}

// isTransient is configured at start-up: no classifier fact, a name only.
var isTransient func(error) bool
