// Package foreign is how every check follows a handler declared in one
// package and registered in another (CONTRACT.md version 3, "Handlers
// registered in another package"). Facts flow only to importers, so the
// package that declares billing.HandleInvoice cannot know it is a handler
// while it is analyzed, and the package that registers it cannot see its
// body. The declaring package exports, on each function that could be a
// handler, one Fact of the check's rows: semantic data about the returns
// that would be a defect if a caller Acked on nil (where each return and
// the check's other places are, relative to the declaration; names and
// kinds), never message text. The registering package imports the fact of
// each handler of another package registered here with a bus that Acks on
// nil (contract.ForeignHandler), and the check reports one diagnostic per
// row there, at the registration call, with the handler's return as the
// first related location: analysistest checks it in the registering
// package's test data, and gopls shows it in the file being edited.
//
// It reads the contract model's handlers (ForeignHandlers) and its
// placement of positions (Offset, Settle().SiteIn), and the facts of the
// dependencies through the check's pass; it keeps nothing between calls.
package foreign

import (
	"cmp"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// Place is a position relative to a function's declaration, as
// contract.Model.Offset gives it: a line offset from the declaration's
// line and a column. A Line of -1 is no place (None).
type Place struct{ Line, Col int }

// None is the place of something that is not there (a classification
// made in another function).
var None = Place{Line: -1}

// Row is what a check records of one return of a candidate handler. Its
// concrete type is the check's own (a fact type belongs to one analyzer),
// a struct with exported fields only, no maps: gob-encoded, it must
// re-encode byte for byte.
type Row interface {
	// Return is where the return is.
	Return() Place
	// Summary says what a function with such rows does, for the fact's
	// String ("drops an undecodable payload if a caller acks on nil"):
	// the same for every value of the type, the zero value included.
	Summary() string
}

// Fact marks a function that could be a handler registered in another
// package with the rows a check records of its returns, in source order.
// Each check declares its own instantiation (Fact[ackpermanent.Drop]);
// gob registers it under its type name, which names the row type by its
// full import path and so is stable.
type Fact[R Row] struct {
	Rows []R
}

func (*Fact[R]) AFact() {}

func (f *Fact[R]) String() string {
	var zero R
	return zero.Summary()
}

// At returns pos relative to fn's declaration; ok is false when pos is
// not in fn's file after its declaration's line (contract.Model.Offset).
func At(m *contract.Model, fn *types.Func, pos token.Pos) (Place, bool) {
	line, col, ok := m.Offset(fn, pos)
	return Place{Line: line, Col: col}, ok
}

// AtOrNone is At, with None where pos cannot be placed.
func AtOrNone(m *contract.Model, fn *types.Func, pos token.Pos) Place {
	if p, ok := At(m, fn, pos); ok {
		return p
	}
	return None
}

// Export exports rows on fn, a function of the package under analysis, in
// the order of their returns; it exports nothing when there are none, so
// that a function without rows carries no fact.
func Export[R Row](pass *analysis.Pass, fn *types.Func, rows []R) {
	if len(rows) == 0 {
		return
	}
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b R) int {
		pa, pb := a.Return(), b.Return()
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
	})
	pass.ExportObjectFact(fn, &Fact[R]{Rows: rows})
}

// Finding is one row of a registered handler's fact, as the registering
// package sees it.
type Finding[R Row] struct {
	Handler contract.ForeignHandler
	// Name is the handler function as a reader names it:
	// billing.HandleInvoice, (*billing.Handlers).HandleCharge.
	Name string
	Row  R
	m    *contract.Model
}

// Pos returns p, a place of the row, in the handler's file; token.NoPos
// for None.
func (f Finding[R]) Pos(p Place) token.Pos {
	if p.Line < 0 {
		return token.NoPos
	}
	return f.m.Settle().SiteIn(f.Handler.Fn, p.Line, p.Col)
}

// Build makes a check's message of a finding, and the related locations
// of its own (the decode, the DLQ write, the classification) that follow
// the handler's return.
type Build[R Row] func(f Finding[R]) (message string, related []analysis.RelatedInformation)

// Report reports, for each handler of another package registered here
// with a bus that Acks on nil and carrying the check's Fact[R], one
// diagnostic per row: at the registration call, with the handler's return
// as the first related location, then the check's own, then the
// registration and the bus's Ack (ForeignHandler.Related). *at follows the
// registration being reported, for internal errors.
func Report[R Row](pass *analysis.Pass, m *contract.Model, at *token.Pos, build Build[R]) {
	for _, fh := range m.Handlers().ForeignHandlers() {
		var fact Fact[R]
		if !pass.ImportObjectFact(fh.Fn, &fact) {
			continue
		}
		*at = fh.Call.Pos()
		name := HandlerName(fh.Fn)
		for _, r := range fact.Rows {
			f := Finding[R]{Handler: fh, Name: name, Row: r, m: m}
			ret := f.Pos(r.Return())
			msg, own := build(f)
			related := append([]analysis.RelatedInformation{{Pos: ret, End: ret, Message: "the handler returns nil here"}}, own...)
			m.Report(pass, analysis.Diagnostic{
				Pos: fh.Call.Pos(), End: fh.Call.End(),
				Message: msg,
				Related: fh.Related(related...),
			})
		}
	}
}

// HandlerName names fn as a reader of the registering package would:
// its package's name and its name, and for a method its receiver type,
// parenthesized when a pointer ((*billing.Handlers).HandleCharge).
func HandlerName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		if fn.Pkg() == nil {
			return fn.Name()
		}
		return fn.Pkg().Name() + "." + fn.Name()
	}
	t := types.TypeString(recv.Type(), (*types.Package).Name)
	if _, ptr := recv.Type().(*types.Pointer); ptr {
		t = "(" + t + ")"
	}
	return t + "." + fn.Name()
}
