package retry

import (
	"errors"
	"fmt"
	"time"
)

// ErrRetryRequested is the error RetryAfter and Transient wrap when they are
// given a nil error: the caller asked for a retry without saying why.
var ErrRetryRequested = errors.New("retry: retry requested")

// Delayer is the behaviour that carries retry intent with a delay. It is
// matched with errors.As, so any type in any package that has this method
// set carries the intent.
type Delayer interface {
	RetryDelay() time.Duration
}

// DelayedError is a transient failure that asks to be retried after Delay.
// RetryAfter returns one.
type DelayedError struct {
	Err   error         // the cause; never nil
	Delay time.Duration // never negative
}

// RetryAfter marks err as transient and asks for a retry after delay. A nil
// err becomes ErrRetryRequested and a negative delay is clamped to 0 (retry
// at once). The result keeps err in its chain for errors.Is and errors.As.
func RetryAfter(err error, delay time.Duration) error {
	if err == nil {
		err = ErrRetryRequested
	}
	return &DelayedError{Err: err, Delay: max(delay, 0)}
}

// Error returns the cause's text with the delay.
func (e *DelayedError) Error() string {
	return fmt.Sprintf("%v (retry after %v)", e.Err, e.Delay)
}

// Unwrap returns the cause.
func (e *DelayedError) Unwrap() error { return e.Err }

// RetryDelay returns the requested delay.
func (e *DelayedError) RetryDelay() time.Duration { return e.Delay }

// RetryDelay reports the delay carried by the first value in err's chain that
// has a RetryDelay() time.Duration method. ok is false when there is none.
// A negative carried delay is reported as 0.
func RetryDelay(err error) (d time.Duration, ok bool) {
	var rd Delayer
	if !errors.As(err, &rd) {
		return 0, false
	}
	return max(rd.RetryDelay(), 0), true
}

// TransientError is a transient failure without a delay of its own: the
// caller's backoff Policy chooses the delay. Transient returns one.
type TransientError struct {
	Err error // the cause; never nil
}

// Transient marks err as transient and lets the caller's backoff policy
// choose the delay. A nil err becomes ErrRetryRequested.
func Transient(err error) error {
	if err == nil {
		err = ErrRetryRequested
	}
	return &TransientError{Err: err}
}

// Error returns the cause's text.
func (e *TransientError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *TransientError) Unwrap() error { return e.Err }

// Retryable reports true: the failure is transient.
func (e *TransientError) Retryable() bool { return true }

// PermanentError is a failure that must not be retried. Permanent returns
// one.
type PermanentError struct {
	Err error // the cause; never nil
}

// Permanent marks err as permanent, overriding any retry intent wrapped
// deeper in its chain. It returns nil for a nil err.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &PermanentError{Err: err}
}

// Error returns the cause's text.
func (e *PermanentError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent reports true: the failure must not be retried.
func (e *PermanentError) Permanent() bool { return true }

// Kind is the classification of an error.
type Kind int

const (
	// KindNone is the kind of a nil error.
	KindNone Kind = iota
	// KindPermanent is an error without retry intent, or one marked
	// permanent: it must not be retried.
	KindPermanent
	// KindDelayed is a transient error that carries its own delay.
	KindDelayed
	// KindTransient is a transient error whose delay the backoff policy
	// chooses.
	KindTransient
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case KindNone:
		return "none"
	case KindPermanent:
		return "permanent"
	case KindDelayed:
		return "delayed"
	case KindTransient:
		return "transient"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Classification is the retry intent found in an error chain.
type Classification struct {
	Kind  Kind
	Delay time.Duration // the carried delay when Kind is KindDelayed
}

// Transient reports whether the error asks to be retried.
func (c Classification) Transient() bool {
	return c.Kind == KindDelayed || c.Kind == KindTransient
}

// Classify returns the retry intent of err. The first marker met in a depth
// first walk of the chain (the order errors.As uses) decides; an error with
// no marker is permanent and a nil error is KindNone.
func Classify(err error) Classification {
	if err == nil {
		return Classification{Kind: KindNone}
	}
	c, found := classify(err, 0)
	if !found {
		return Classification{Kind: KindPermanent}
	}
	return c
}

// Unclassified reports whether err, non-nil, carries no retry marker at
// all (no Permanent, RetryDelay or Retryable anywhere in its chain).
// Classify calls such an error permanent, as the contract does; a runner
// may decide otherwise (package bus, WithUnclassified).
func Unclassified(err error) bool {
	if err == nil {
		return false
	}
	_, found := classify(err, 0)
	return !found
}

// maxDepth bounds the walk over pathological (cyclic) chains.
const maxDepth = 100

func classify(err error, depth int) (Classification, bool) {
	if err == nil || depth > maxDepth {
		return Classification{}, false
	}
	if e, ok := err.(interface{ Permanent() bool }); ok && e.Permanent() {
		return Classification{Kind: KindPermanent}, true
	}
	if e, ok := err.(Delayer); ok {
		return Classification{Kind: KindDelayed, Delay: max(e.RetryDelay(), 0)}, true
	}
	if e, ok := err.(interface{ Retryable() bool }); ok && e.Retryable() {
		return Classification{Kind: KindTransient}, true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return classify(u.Unwrap(), depth+1)
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			if c, ok := classify(inner, depth+1); ok {
				return c, true
			}
		}
	}
	return Classification{}, false
}

// TypeNames returns the dynamic type names along err's chain in depth first
// order, for evidence and logs: "*retry.DelayedError", "*fmt.wrapError"...
func TypeNames(err error) []string {
	var names []string
	var walk func(error, int)
	walk = func(e error, depth int) {
		if e == nil || depth > maxDepth {
			return
		}
		names = append(names, fmt.Sprintf("%T", e))
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap(), depth+1)
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner, depth+1)
			}
		}
	}
	walk(err, 0)
	return names
}
