package handlers

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
)

// Handlers that take no message (CONTRACT.md version 3, "Handlers
// registered in another package"). A bus that decodes an envelope before
// calling its handlers (func(ctx, ev Event) error, or a generic registrar's
// func(ctx, ev Event, data T) error) Acks on their nil result as any other
// bus does, but a function without a message parameter is not a candidate
// by IsCandidate. Taking every exported function with an error result as
// a candidate would make the model solve the paths of most of a large
// program's API, so the criterion is the one a registration makes: a
// function can be registered in another package only where that package
// sees the bus, and a package that declares such handlers imports the
// bus's types. Decided:
//
//   - A function fits a Shape when it has its parameters and results, in
//     order, identical, or the shape's parameter is a type parameter of
//     its function (On[T any](b, kind, h func(ctx, Event, T) error) takes
//     func(ctx, Event, Refund) error): one level of unification, no
//     constraint check, no type parameter nested in another type.
//   - The shapes a package sees are the types of the handler parameters
//     of the functions with a HandlerFact or a MiddlewareFact among its
//     dependencies (their facts are all it reads): not its own, since a
//     bus declared in the package that declares its handlers registers
//     them there.
//   - A candidate without a message is an exported function or method
//     whose signature fits a shape, or an exported middleware
//     (func(..., h Func) Func, a parameter and the one result fitting a
//     shape) that returns one function literal: the literal is the
//     handler, and the middleware's facts are the literal's
//     (middleware.IgnorePermanent(log, h) registered at a bus that Acks
//     on nil: its closure's nil return is the Ack). A middleware that
//     returns two literals is not a candidate (its facts would mix them).

// ShapesOf returns the Shapes of the handler parameters of imp's handler
// callers and middleware.
func ShapesOf(imp Imported) Shapes {
	var out Shapes
	add := func(fn *types.Func, params []int) {
		ps := fn.Signature().Params()
		for _, i := range params {
			if i < ps.Len() {
				if sig, ok := ps.At(i).Type().Underlying().(*types.Signature); ok {
					out = append(out, sig)
				}
			}
		}
	}
	for fn, r := range imp.Handlers {
		add(fn, r.Params)
	}
	for fn, params := range imp.Middleware {
		add(fn, params)
	}
	return out
}

// Fits reports whether a function of signature sig could be passed where
// one of the shapes is expected.
func (s Shapes) Fits(sig *types.Signature) bool {
	for _, shape := range s {
		if fits(sig, shape) {
			return true
		}
	}
	return false
}

// fits reports whether sig is assignable to shape, or unifies with it
// where shape's parameter is a type parameter.
func fits(sig, shape *types.Signature) bool {
	if sig.Variadic() != shape.Variadic() || sig.Params().Len() != shape.Params().Len() || !types.Identical(sig.Results(), shape.Results()) {
		return false
	}
	for i := range sig.Params().Len() {
		want := shape.Params().At(i).Type()
		if _, free := want.(*types.TypeParam); !free && !types.Identical(sig.Params().At(i).Type(), want) {
			return false
		}
	}
	return true
}

// MessagelessCandidate returns the function that could be a handler
// registered in another package although it takes no message, as a
// declaration: d itself when its signature fits a shape, or, for
// middleware whose result fits one, the literal it returns under d's name
// (the object its facts go on), with the literal's type and body; nil
// when d is neither. Only exported, and never one that IsCandidate
// accepts, so that no function is a candidate twice.
func MessagelessCandidate(info *types.Info, msgs *messages.Table, shapes Shapes, d *ast.FuncDecl) *ast.FuncDecl {
	if len(shapes) == 0 || d.Body == nil || !d.Name.IsExported() {
		return nil
	}
	fn, ok := info.Defs[d.Name].(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Signature()
	for i := range sig.Params().Len() {
		if msgs.IsMessage(sig.Params().At(i).Type()) {
			return nil
		}
	}
	if ReturnsError(sig) && shapes.Fits(sig) {
		return d
	}
	if lit := middlewareLit(info, shapes, sig, d.Body); lit != nil {
		return &ast.FuncDecl{Name: d.Name, Type: lit.Type, Body: lit.Body}
	}
	return nil
}

// middlewareLit returns the one function literal body returns when sig is
// a middleware's (one result, and a parameter fitting a shape) and the
// literal fits one, or nil. A function that returns a handler without
// taking one is no middleware: what it returns is not registered through
// a MiddlewareFact, so its literal is not solved for nothing.
func middlewareLit(info *types.Info, shapes Shapes, sig *types.Signature, body *ast.BlockStmt) *ast.FuncLit {
	if sig.Results().Len() != 1 {
		return nil
	}
	wraps := false
	for i := range sig.Params().Len() {
		if p, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok && shapes.Fits(p) {
			wraps = true
		}
	}
	if !wraps {
		return nil
	}
	var lits []*ast.FuncLit
	for _, lit := range returnedLits(info, body) {
		if t, ok := info.TypeOf(lit).(*types.Signature); ok && shapes.Fits(t) {
			lits = append(lits, lit)
		}
	}
	if len(lits) != 1 {
		return nil
	}
	return lits[0]
}

// messagelessCandidates returns the package's MessagelessCandidates, by
// the declaration they come from.
func (m *Result) messagelessCandidates(decls []*ast.FuncDecl) map[*ast.FuncDecl]*ast.FuncDecl {
	if len(m.shapes) == 0 {
		return nil
	}
	out := make(map[*ast.FuncDecl]*ast.FuncDecl)
	for _, d := range decls {
		if c := MessagelessCandidate(m.info, m.msgs, m.shapes, d); c != nil {
			out[d] = c
		}
	}
	return out
}

// MessagelessBodies returns the bodies of the package's
// MessagelessCandidates, in source order: the paths stage solves them
// with the other candidates'.
func (m *Result) MessagelessBodies() []*ast.BlockStmt {
	var out []*ast.BlockStmt
	for _, d := range m.decls {
		if c := m.messageless[d]; c != nil {
			out = append(out, c.Body)
		}
	}
	return out
}
