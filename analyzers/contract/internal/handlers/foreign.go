package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"golang.org/x/tools/go/analysis"
)

// Handlers registered in another package. Facts flow only to importers, so
// a handler declared in package svc and registered in cmd/main is not
// known to be a handler while svc is analyzed. Instead, each function that
// could be a handler (a message parameter, an error result) carries the
// returns that would drop a retryable error if its nil result were an Ack
// (HandlerCandidateFact); the package that registers it with a bus that
// Acks on nil reports them, at the returns themselves.

// ForeignHandler is a function of another package passed here to a bus
// that Acks when it returns nil, with the returns that drop a retryable
// error.
type ForeignHandler struct {
	Fn      *types.Func
	Call    *ast.CallExpr // the registration
	Caller  string
	Ack     token.Pos
	Returns []ForeignReturn
}

// Related returns the related locations every report on the handler
// carries, after those of the finding itself: the registration, and the
// bus's Ack when known.
func (h ForeignHandler) Related(first ...analysis.RelatedInformation) []analysis.RelatedInformation {
	out := append(first, analysis.RelatedInformation{Pos: h.Call.Pos(), End: h.Call.End(), Message: "registered as a handler here"})
	if h.Ack.IsValid() {
		out = append(out, analysis.RelatedInformation{Pos: h.Ack, Message: h.Caller + " Acks the message here"})
	}
	return out
}

// ForeignReturn is a return of a ForeignHandler, placed in its file.
type ForeignReturn struct {
	Pos      token.Pos
	Err      string
	Producer string
}

// ForeignHandlers returns the handlers of other packages registered here.
func (m *Result) ForeignHandlers() []ForeignHandler { return m.foreign }

// IsCandidate reports whether d could be a handler: it returns an
// error last and takes a message.
func IsCandidate(info *types.Info, msgs *messages.Table, d *ast.FuncDecl) bool {
	fn, ok := info.Defs[d.Name].(*types.Func)
	if !ok || d.Body == nil || !ReturnsError(fn.Type()) {
		return false
	}
	for _, p := range messages.ParamVars(info, d.Type) {
		if p != nil && msgs.IsMessage(p.Type()) {
			return true
		}
	}
	return false
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
	// Every registration is kept: checks other than ackretryable read
	// facts of their own about the handler (poisonack's decode failures).
	h := ForeignHandler{Fn: fn.Origin(), Call: call, Caller: caller, Ack: ack}
	if rets := m.imported.Candidates[fn.Origin()]; rets != nil {
		for _, r := range rets {
			h.Returns = append(h.Returns, ForeignReturn{Pos: m.set.SiteIn(fn.Origin(), r.Line, r.Col), Err: r.Err, Producer: r.Producer})
		}
	}
	m.foreign = append(m.foreign, h)
}

// HandlerCandidates returns the function declarations of the package that
// could be handlers registered in another package (exported, a message
// parameter, an error result) and are not known to be handlers here, in
// source order. Only an exported name can be registered from elsewhere.
func (m *Result) HandlerCandidates() []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range m.decls {
		if d.Name.IsExported() && m.handlers[d.Body] == nil && IsCandidate(m.info, m.msgs, d) {
			out = append(out, d)
		}
	}
	return out
}
