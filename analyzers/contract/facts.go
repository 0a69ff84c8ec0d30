package contract

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"golang.org/x/tools/go/analysis"
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

// HandlerFact marks a function that calls its func-typed parameters
// Params and Acks a message when they return nil. Line and Col locate the
// Ack, relative to the function's declaration like Effect's.
type HandlerFact struct {
	Params    []int
	Line, Col int
	// File is the base name of the file holding the Ack when it is not the
	// function's own; Line is then absolute.
	File string
	// Payload are the indexes of the handler's parameters the function
	// passes the message's payload.
	Payload []int
}

func (*HandlerFact) AFact() {}

func (f *HandlerFact) String() string {
	return "acks when handler param " + joinInts(f.Params) + " returns nil"
}

// MiddlewareFact marks a function that returns a closure calling its
// func-typed parameters Params and returning their result: what it is
// given is a handler wherever what it returns is one.
type MiddlewareFact struct {
	Params []int
}

func (*MiddlewareFact) AFact() {}

func (f *MiddlewareFact) String() string {
	return "wraps handler param " + joinInts(f.Params)
}

// exportMiddlewareFacts exports a MiddlewareFact for each middleware
// function of the package.
func (m *Model) exportMiddlewareFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.hd.Middleware()) {
		pass.ExportObjectFact(fn, &MiddlewareFact{Params: slices.Clone(m.hd.Middleware()[fn])})
	}
}

// exportHandlerFacts exports a HandlerFact for each function of the
// package with handler parameters.
func (m *Model) exportHandlerFacts(pass *analysis.Pass) {
	fns := m.hd.WithHandlerParams()
	sortByPos(fns)
	for _, fn := range fns {
		params, ack, payload := m.hd.HandlerParams(fn)
		f := &HandlerFact{Params: slices.Clone(params), Payload: slices.Clone(payload)}
		decl, at := m.fset.Position(fn.Pos()), m.fset.Position(ack)
		switch {
		case at.Filename == decl.Filename && at.Line >= decl.Line:
			f.Line, f.Col = at.Line-decl.Line, at.Column
		case at.IsValid():
			f.File, f.Line, f.Col = filepath.Base(at.Filename), at.Line, at.Column
		}
		pass.ExportObjectFact(fn, f)
	}
}
