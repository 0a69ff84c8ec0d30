package contract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
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

// DLQWriterFact marks a function that makes a DLQ write on some path, and
// says what its error tells of the write (CONTRACT.md, "The write's
// outcome").
type DLQWriterFact struct {
	Kind dlq.WriterKind
}

func (*DLQWriterFact) AFact() {}
func (f *DLQWriterFact) String() string {
	switch f.Kind {
	case dlq.OrderingWriter:
		return "writes DLQ (its error is not the write's)"
	case dlq.SwallowingWriter:
		return "writes DLQ (always, and drops its error)"
	}
	return "writes DLQ"
}

// EffectsFact marks a function that settles messages it receives as
// parameters (CONTRACT.md, "Effects of a helper"), in (parameter,
// settlement) order.
type EffectsFact struct {
	Effects []Effect
}

func (*EffectsFact) AFact() {}

// String lists the parameters per settlement: "may Term param 1",
// "may Ack param 0; may Term param 0,1".
func (f *EffectsFact) String() string {
	var parts []string
	for _, s := range settle.SettlementOrder {
		var params []int
		for _, e := range f.Effects {
			if e.Settlement == s && !slices.Contains(params, e.Param) {
				params = append(params, e.Param)
			}
		}
		if len(params) > 0 {
			parts = append(parts, "may "+settle.SettlementVerbs[s]+" param "+joinInts(params))
		}
	}
	return strings.Join(parts, "; ")
}

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
