package contract

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
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

// HandlerCandidateFact marks a function that returns nil in the error
// branch of a retryable producer's error, unclassified: a defect if a
// caller Acks when it returns nil.
type HandlerCandidateFact struct {
	Returns []CandidateReturn
}

// CandidateReturn is one such return: where it is (relative to the
// function's declaration, like Effect's), the error and its producer.
type CandidateReturn struct {
	Line, Col int
	Err       string
	Producer  string
}

func (*HandlerCandidateFact) AFact() {}
func (*HandlerCandidateFact) String() string {
	return "drops a retryable error if a caller acks on nil"
}

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
func (m *Model) ForeignHandlers() []ForeignHandler { return m.foreign }

// isHandlerCandidate reports whether d could be a handler: it returns an
// error last and takes a message.
func (m *Model) isHandlerCandidate(d *ast.FuncDecl) bool {
	fn, ok := m.info.Defs[d.Name].(*types.Func)
	if !ok || d.Body == nil || !returnsError(fn.Type()) {
		return false
	}
	for _, p := range messages.ParamVars(m.info, d.Type) {
		if p != nil && m.msgs.IsMessage(p.Type()) {
			return true
		}
	}
	return false
}

// isTypedHandlerCandidate reports whether d could be a typed handler, one
// that middleware of another package calls with the decoded payload
// (bus.JSON(h.HandleInvoice)): exported, an error as its only result, a
// context.Context first and one more parameter, no message. Its nil return
// after a retryable error is an Ack only if a package registers it through
// such middleware with a bus that Acks on nil; the candidate fact alone
// reports nothing.
func (m *Model) isTypedHandlerCandidate(d *ast.FuncDecl) bool {
	fn, ok := m.info.Defs[d.Name].(*types.Func)
	if !ok || d.Body == nil || !d.Name.IsExported() {
		return false
	}
	sig := fn.Signature()
	if sig.Results().Len() != 1 || !returnsError(sig) || sig.Params().Len() != 2 || sig.Variadic() {
		return false
	}
	return gotypes.IsNamed(sig.Params().At(0).Type(), "context", "Context") && !m.msgs.IsMessage(sig.Params().At(1).Type())
}

// inferHandlerCandidates records, for the package's candidate handlers
// (typed ones included), the nil returns in a retryable producer's error
// branch. It runs after the transient paths are solved.
func (m *Model) inferHandlerCandidates(decls []*ast.FuncDecl) {
	m.candidates = make(map[*types.Func][]ForeignReturn)
	for _, d := range decls {
		if !m.isHandlerCandidate(d) && !m.isTypedHandlerCandidate(d) {
			continue
		}
		paths := m.paths[d.Body]
		for _, ret := range m.NilReturns(d.Body) {
			facts, ok := paths.AtReturn(ret)
			if !ok || facts.ErrorBranch == nil {
				continue
			}
			r := ForeignReturn{Pos: ret.Pos()}
			if b := facts.ErrorBranch; b.Err != nil {
				r.Err = b.Err.Name()
			}
			if b := facts.ErrorBranch; b.Producer != nil {
				r.Producer = goast.CalleeName(b.Producer)
			}
			fn := m.info.Defs[d.Name].(*types.Func)
			m.candidates[fn] = append(m.candidates[fn], r)
		}
	}
}

func (m *Model) exportHandlerCandidateFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.candidates) {
		f := &HandlerCandidateFact{}
		for _, r := range m.candidates[fn] {
			if line, col, ok := m.Offset(fn, r.Pos); ok {
				f.Returns = append(f.Returns, CandidateReturn{Line: line, Col: col, Err: r.Err, Producer: r.Producer})
			}
		}
		if len(f.Returns) > 0 {
			pass.ExportObjectFact(fn, f)
		}
	}
}

// foreignHandler records a handler argument that names a function of
// another package known to drop retryable errors.
func (m *Model) foreignHandler(arg ast.Expr, call *ast.CallExpr, caller string, ack token.Pos) {
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
	if f := m.imported.candidates[fn.Origin()]; f != nil {
		for _, r := range f.Returns {
			h.Returns = append(h.Returns, ForeignReturn{Pos: m.set.SiteIn(fn.Origin(), r.Line, r.Col), Err: r.Err, Producer: r.Producer})
		}
	}
	m.foreign = append(m.foreign, h)
}

// HandlerCandidates returns the function declarations of the package that
// could be handlers registered in another package (exported, a message
// parameter, an error result) and are not known to be handlers here, in
// source order. Only an exported name can be registered from elsewhere.
func (m *Model) HandlerCandidates() []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range m.decls {
		if d.Name.IsExported() && m.handlers[d.Body] == nil && m.isHandlerCandidate(d) {
			out = append(out, d)
		}
	}
	return out
}

// ParamsOf returns the parameters a function type declares, in order (nil
// for an unnamed or blank one).
func (m *Model) ParamsOf(ft *ast.FuncType) []*types.Var { return messages.ParamVars(m.info, ft) }

// Site returns where a position recorded relative to fn's declaration
// (line offset, column) lies, in fn's file: how facts place a site in
// another package.
func (m *Model) Site(fn *types.Func, line, col int) token.Pos { return m.set.SiteIn(fn, line, col) }

// Offset returns pos relative to fn's declaration (line offset, column),
// as Site reads it; ok is false when pos is not in fn's file after it.
func (m *Model) Offset(fn *types.Func, pos token.Pos) (line, col int, ok bool) {
	decl, at := m.fset.Position(fn.Pos()), m.fset.Position(pos)
	if at.Filename != decl.Filename || at.Line < decl.Line {
		return 0, 0, false
	}
	return at.Line - decl.Line, at.Column, true
}
