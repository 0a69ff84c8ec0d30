package contract

import (
	"fmt"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// The facts below are exported by the contract analyzer for functions of the
// package under analysis (on generic origins), so that every check sees
// producers, DLQ writers and may-Term helpers declared in other packages.
// They are small structs without maps so that their gob encoding is
// deterministic.

// producerFact marks a retryable producer: a function any of whose error
// results may hold a retry carrier.
type producerFact struct{}

func (*producerFact) AFact()         {}
func (*producerFact) String() string { return "retryable producer" }

// retryableVarFact marks a package-level error variable whose value may
// hold a retry carrier (var ErrThrottled = retry.RetryAfter(...)), so that
// other packages returning or wrapping it are producers too.
type retryableVarFact struct{}

func (*retryableVarFact) AFact()         {}
func (*retryableVarFact) String() string { return "retryable error value" }

// wrapsFact marks a function that returns one of its error parameters
// wrapped (with %w, errors.Join or an Unwrap-able wrapper), so a retryable
// argument yields a retryable result.
type wrapsFact struct {
	Params []int
}

func (*wrapsFact) AFact() {}

// SeenBySilent: silence's rules account for wrappers (contract.Silence).
func (*wrapsFact) SeenBySilent() bool { return true }
func (f *wrapsFact) String() string {
	return "wraps param " + joinInts(f.Params)
}

// dLQWriterFact marks a function that makes a DLQ write on some path, and
// says what its error tells of the write (CONTRACT.md, "The write's
// outcome").
type dLQWriterFact struct {
	Kind dlq.WriterKind
}

func (*dLQWriterFact) AFact()           {}
func (f *dLQWriterFact) String() string { return f.Kind.String() }

// effectsFact marks a function that settles messages it receives as
// parameters (CONTRACT.md, "Effects of a helper"), in (parameter,
// settlement) order.
type effectsFact struct {
	Effects []settle.Effect
}

func (*effectsFact) AFact() {}

// String lists the parameters per settlement: "may Term param 1",
// "may Ack param 0; may Term param 0,1".
func (f *effectsFact) String() string {
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

// classifierFact marks a function whose result classifies its error
// argument as transient: the true (ok) side of its result is a transient
// path.
type classifierFact struct {
	Kind transient.ClassifierKind
}

func (*classifierFact) AFact() {}
func (f *classifierFact) String() string {
	if f.Kind == transient.DelayClassifier {
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

// handlerFact marks a function that calls its func-typed parameters
// Params and Acks a message when they return nil (true, for a parameter
// returning a bool). Line and Col locate the Ack, relative to the
// function's declaration like Effect's.
type handlerFact struct {
	Params    []int
	Line, Col int
	// File is the base name of the file holding the Ack when it is not the
	// function's own; Line is then absolute.
	File string
	// Payload are the indexes of the handler's parameters the function
	// passes the message's payload.
	Payload []int
	// OnError is what it does when the handler returns an error: a Nak,
	// NakWithDelay or Term (its profile.Settlement), or "".
	OnError profile.Settlement
}

func (*handlerFact) AFact() {}

func (f *handlerFact) String() string {
	if f.OnError != "" {
		return "acks when handler param " + joinInts(f.Params) + " returns nil, " + string(f.OnError) + " on error"
	}
	return "acks when handler param " + joinInts(f.Params) + " returns nil"
}

// middlewareFact marks a function that returns a closure calling its
// func-typed parameters Params and returning their result: what it is
// given is a handler wherever what it returns is one.
type middlewareFact struct {
	Params []int
	// Factory: the function returns middleware (Timeout(d) returning a
	// func(h Handler) Handler that wraps h), so Timeout(d)(h) wraps h.
	Factory bool
}

func (*middlewareFact) AFact() {}

func (f *middlewareFact) String() string {
	var parts []string
	if len(f.Params) > 0 {
		parts = append(parts, "wraps handler param "+joinInts(f.Params))
	}
	if f.Factory {
		parts = append(parts, "returns middleware")
	}
	return strings.Join(parts, "; ")
}

// carrierTypesFact is a package fact: the package declares types with the
// carrier method (RetryDelay). A package that imports one may hold a
// retry carrier in its errors. (Each package names its own, once: asking
// every importer to scan every import's scope cost more than the rest of
// the vocabulary.)
type carrierTypesFact struct {
	Types []string // the carrier types' names, sorted
}

func (*carrierTypesFact) AFact() {}

func (f *carrierTypesFact) String() string {
	return "carrier types " + strings.Join(f.Types, ", ")
}

// dlqSubjectsFact is a package fact: the package declares string
// constants that match the DLQ subject pattern. A package that imports it
// and names a publish may publish to a DLQ subject by naming one (the
// gate's MayWriteDLQ). Each package names its own, once, as with
// carrierTypesFact.
type dlqSubjectsFact struct {
	Consts []string // the constants' names, in source order
}

func (*dlqSubjectsFact) AFact() {}

func (f *dlqSubjectsFact) String() string {
	return "DLQ subject constants " + strings.Join(f.Consts, ", ")
}

func sortedFuncs(set map[*types.Func]bool) []*types.Func {
	var fns []*types.Func
	for fn, ok := range set {
		if ok {
			fns = append(fns, fn)
		}
	}
	sortByPos(fns)
	return fns
}

func sortedKeys[V any](m map[*types.Func]V) []*types.Func {
	var fns []*types.Func
	for fn := range m {
		fns = append(fns, fn)
	}
	sortByPos(fns)
	return fns
}

func sortByPos(fns []*types.Func) {
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
}
