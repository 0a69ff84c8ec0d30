package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Handlers registered in another package. Facts flow only to importers, so
// a handler declared in package svc and registered in cmd/main is not
// known to be a handler while svc is analyzed. Instead, each function that
// could be a handler (a message parameter, an error result; or a typed
// handler's shape) carries, in a fact of each check, the returns that
// would be a defect if its nil result were an Ack; the package that
// registers it with a bus that Acks on nil (ForeignHandlers) reports them
// at the registration (analyzers/internal/foreign). This stage finds the
// candidates and the registrations; it exports nothing of them.

// IsCandidate reports whether d could be a handler: it returns an
// error last and takes a message.
func IsCandidate(info *types.Info, msgs *messages.Table, d *ast.FuncDecl) bool {
	fn, ok := info.Defs[d.Name].(*types.Func)
	if !ok || d.Body == nil || !ReturnsError(fn.Type()) {
		return false
	}
	return len(msgs.MessageParams(d.Type)) > 0
}

// IsTypedCandidate reports whether d could be a typed handler, one
// that middleware of another package calls with the decoded payload
// (bus.JSON(h.HandleInvoice)): exported, an error as its only result, a
// context.Context first and one more parameter, no message. Its nil return
// after a retryable error is an Ack only if a package registers it through
// such middleware with a bus that Acks on nil; the candidate fact alone
// reports nothing.
func IsTypedCandidate(info *types.Info, msgs *messages.Table, d *ast.FuncDecl) bool {
	fn, ok := info.Defs[d.Name].(*types.Func)
	if !ok || d.Body == nil || !d.Name.IsExported() {
		return false
	}
	sig := fn.Signature()
	if sig.Results().Len() != 1 || !ReturnsError(sig) || sig.Params().Len() != 2 || sig.Variadic() {
		return false
	}
	return gotypes.IsNamed(sig.Params().At(0).Type(), "context", "Context") && !msgs.IsMessage(sig.Params().At(1).Type())
}

// foreignHandler records a handler argument that names a function of
// another package known to drop retryable errors.
func (m *Result) foreignHandler(arg ast.Expr, call *ast.CallExpr, caller string, ack token.Pos) {
	var obj types.Object
	switch e := ast.Unparen(arg).(type) {
	case *ast.SelectorExpr:
		if s := m.info.Selections[e]; s != nil && s.Kind() == types.MethodVal {
			obj = s.Obj()
		} else {
			obj = m.info.Uses[e.Sel]
		}
	case *ast.Ident:
		obj = m.info.Uses[e]
	}
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == m.pkg || fn.Pkg() == nil {
		return
	}
	// Every registration is kept: each check reads facts of its own about
	// the handler (analyzers/internal/foreign).
	h := ForeignHandler{Fn: fn.Origin(), Call: call, Caller: caller, Ack: ack}
	m.foreign = append(m.foreign, h)
}

// foreignMiddleware records the middleware of another package whose
// closure a registration passes to a handler parameter: the closure is
// the handler, and the middleware carries its facts
// (MessagelessCandidate).
func (m *Result) foreignMiddleware(fn *types.Func, call *ast.CallExpr, caller string, ack token.Pos) {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg || len(m.imported.Middleware[fn]) == 0 {
		return
	}
	m.foreign = append(m.foreign, ForeignHandler{Fn: fn, Call: call, Caller: caller, Ack: ack})
}

// HandlerCandidates returns the function declarations of the package that
// could be handlers registered in another package (exported, a message
// parameter, an error result) and are not known to be handlers here, in
// source order. Only an exported name can be registered from elsewhere.
//
// A candidate that takes no message (MessagelessCandidate, shapes.go) is
// among them, as the declaration that function returns: for middleware,
// the literal it returns under its name.
func (m *Result) HandlerCandidates() []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range m.decls {
		c := d
		if !d.Name.IsExported() || !IsCandidate(m.info, m.msgs, d) {
			c = m.messageless[d]
		}
		if c != nil && m.handlers[c.Body] == nil {
			out = append(out, c)
		}
	}
	return out
}

// ExportedCandidates returns the exported function declarations of the
// package that could be handlers (IsCandidate) or typed handlers
// (IsTypedCandidate) registered in another package, handlers here or not,
// in source order: the bodies the paths stage solves for that purpose.
// A MessagelessCandidate is among them, as HandlerCandidates gives it.
func (m *Result) ExportedCandidates() []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range m.decls {
		switch {
		case d.Name.IsExported() && (IsCandidate(m.info, m.msgs, d) || IsTypedCandidate(m.info, m.msgs, d)):
			out = append(out, d)
		case m.messageless[d] != nil:
			out = append(out, m.messageless[d])
		}
	}
	return out
}

// NilReturns returns the return statements of body (not of nested
// literals) whose error result is nil: the literal nil, or a variable
// that is nil on the path to the return (a naked return of a named
// result included; see isNilVarReturn); in a bool handler, the returns of
// true (isTrueReturn).
func (m *Result) NilReturns(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	for _, ret := range m.returnsOf(body) {
		if (len(ret.Results) > 0 && gotypes.IsNilExpr(m.info, ret.Results[len(ret.Results)-1])) || m.isNilVarReturn(ret) || m.isTrueReturn(ret) {
			out = append(out, ret)
		}
	}
	return out
}
