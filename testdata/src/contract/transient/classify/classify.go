// want package:"carrier types TempError, retryDelayer"

// Package classify proves which functions the contract model infers to be
// retry classifiers (exported as ClassifierFact): delay lookups whose ok,
// and predicates whose result, are true only where a retry classification
// of their error argument succeeded. Look-alikes that can report true for
// an error without retry intent get no fact.
package classify

import (
	"errors"
	"net"
	"strings"
	"time"
)

// TempError is a retry carrier.
type TempError struct {
	Op    string
	Delay time.Duration
}

func (e *TempError) Error() string             { return e.Op + ": temporarily unavailable" }
func (e *TempError) RetryDelay() time.Duration { return e.Delay }

type retryDelayer interface{ RetryDelay() time.Duration }

// Unavailable is a retryable producer, not a classifier.
func Unavailable(op string, d time.Duration) error { // want Unavailable:"retryable producer"
	return &TempError{Op: op, Delay: d}
}

func RetryDelay(err error) (time.Duration, bool) { // want RetryDelay:"retry delay classifier"
	var rd retryDelayer
	if errors.As(err, &rd) {
		d := rd.RetryDelay()
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

func DelayOf(err error) (time.Duration, bool) { // want DelayOf:"retry delay classifier"
	d, ok := RetryDelay(err)
	if !ok {
		return 0, false
	}
	return min(d, time.Minute), true
}

func Forward(err error) (time.Duration, bool) { // want Forward:"retry delay classifier"
	return RetryDelay(err)
}

func ByAssertion(err error) (time.Duration, bool) { // want ByAssertion:"retry delay classifier"
	if t, ok := err.(*TempError); ok {
		return t.Delay, true
	}
	return 0, false
}

func ShouldRetry(err error) bool { // want ShouldRetry:"retry predicate"
	var t *TempError
	return errors.As(err, &t)
}

func canRedeliver(err error) bool { // want canRedeliver:"retry predicate"
	_, ok := RetryDelay(err)
	return ok
}

func byTypeSwitch(err error) bool { // want byTypeSwitch:"retry predicate"
	switch err.(type) {
	case *TempError:
		return true
	}
	return false
}

func worthWaiting(err error) bool { // want worthWaiting:"retry predicate"
	d, ok := RetryDelay(err)
	return ok && d > 0
}

func Nested(op string, err error) bool { // want Nested:"retry predicate"
	if err == nil {
		return false
	}
	if ShouldRetry(err) {
		return true
	}
	return false
}

// The look-alikes below get no fact.

func anyError(err error) (time.Duration, bool) {
	if err != nil {
		return time.Second, true
	}
	return 0, false
}

func never(err error) bool { return false }

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func permanent(err error) bool {
	var t *TempError
	return !errors.As(err, &t)
}

func otherError(err, cause error) bool {
	var t *TempError
	return errors.As(cause, &t)
}

func leaky(err error) bool {
	var t *TempError
	if errors.As(err, &t) {
		return true
	}
	return err != nil
}

func byText(err error) bool {
	return strings.Contains(err.Error(), "unavailable")
}

func afterReassign(err error) bool {
	var t *TempError
	ok := errors.As(err, &t)
	err = errors.New("replaced")
	return ok && err != nil
}
