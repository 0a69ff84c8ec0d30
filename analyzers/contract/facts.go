package contract

import (
	"fmt"
	"strings"
)

// The facts below are exported by the contract analyzer for functions of the
// package under analysis (on generic origins), so that every check sees
// producers, DLQ writers and may-Term helpers declared in other packages.
// They are small structs without maps so that their gob encoding is
// deterministic.

// ProducerFact marks a retryable producer: a function any of whose error
// results may hold a retry carrier.
type ProducerFact struct{}

func (*ProducerFact) AFact()         {}
func (*ProducerFact) String() string { return "retryable producer" }

// RetryableVarFact marks a package-level error variable whose value may
// hold a retry carrier (var ErrThrottled = retry.RetryAfter(...)), so that
// other packages returning or wrapping it are producers too.
type RetryableVarFact struct{}

func (*RetryableVarFact) AFact()         {}
func (*RetryableVarFact) String() string { return "retryable error value" }

// WrapsFact marks a function that returns one of its error parameters
// wrapped (with %w, errors.Join or an Unwrap-able wrapper), so a retryable
// argument yields a retryable result.
type WrapsFact struct {
	Params []int
}

func (*WrapsFact) AFact() {}
func (f *WrapsFact) String() string {
	return "wraps param " + joinInts(f.Params)
}

// DLQWriterFact marks a function that makes a DLQ write on some path.
type DLQWriterFact struct{}

func (*DLQWriterFact) AFact()         {}
func (*DLQWriterFact) String() string { return "writes DLQ" }

// MayTermFact marks a function that calls Term or TermWithReason on a
// message it receives as a parameter, on some path.
type MayTermFact struct {
	Params []int
	// TermLine and TermCol locate the first Term (or the call of another
	// may-Term helper) inside the function: lines after the line of the
	// function's name, and the column. Checks use them to point at the
	// inner Term from another package without storing a token.Pos, which
	// would mean nothing in another process.
	TermLine, TermCol int
}

func (*MayTermFact) AFact() {}
func (f *MayTermFact) String() string {
	return "may Term param " + joinInts(f.Params)
}

// ClassifierKind says how a classifier function reports retry intent.
type ClassifierKind int

const (
	// DelayClassifier returns (time.Duration, bool), ok only when the error
	// carries a retry delay.
	DelayClassifier ClassifierKind = iota + 1
	// PredicateClassifier returns a bool that is true only when the error
	// carries retry intent.
	PredicateClassifier
)

// ClassifierFact marks a function whose result classifies its error
// argument as transient: the true (ok) side of its result is a transient
// path.
type ClassifierFact struct {
	Kind ClassifierKind
}

func (*ClassifierFact) AFact() {}
func (f *ClassifierFact) String() string {
	if f.Kind == DelayClassifier {
		return "retry delay classifier"
	}
	return "retry predicate"
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}
