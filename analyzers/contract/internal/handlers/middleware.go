package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
)

// middlewareParams returns the handler parameters fn (any package) wraps.
func (m *Result) middlewareParams(fn *types.Func) []int {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.middleware[fn]
	}
	return m.imported.Middleware[fn]
}

// inferMiddleware finds the package's functions that return a function
// literal (possibly converted) whose body returns the result of calling
// one of their func-typed parameters, and the middleware factories: the
// functions that return a function literal that is such middleware of its
// own first parameter (Timeout(d) returning func(h Handler) Handler).
func (m *Result) inferMiddleware(decls []*ast.FuncDecl) {
	m.middleware = make(map[*types.Func][]int)
	m.factories = make(map[*types.Func]bool)
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil || !returnsFunc(fn.Signature()) {
			continue // both return a function literal: most functions cannot
		}
		lits := returnedLits(m.info, d.Body)
		if len(lits) == 0 {
			continue
		}
		for i, p := range messages.ParamVars(m.info, d.Type) {
			if p != nil && ReturnsError(p.Type()) && m.litsPass(lits, p) {
				m.middleware[fn] = append(m.middleware[fn], i)
			}
		}
		for _, lit := range lits {
			if ps := messages.ParamVars(m.info, lit.Type); len(ps) == 1 && ps[0] != nil && ReturnsError(ps[0].Type()) && m.returnsWrapper(lit.Body, ps[0]) {
				m.factories[fn] = true
			}
		}
	}
}

// isFactory reports whether fn (any package) returns middleware.
func (m *Result) isFactory(fn *types.Func) bool {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.factories[fn]
	}
	return m.imported.Factories[fn]
}

// returnsWrapper reports whether body returns a function literal that
// passes on the nil result of a call of p: it returns the call's result,
// or a variable that the call defines (err := p(ctx, msg); ...; return
// err: where the call returned nil, so does the literal).
func (m *Result) returnsWrapper(body *ast.BlockStmt, p *types.Var) bool {
	return m.litsPass(returnedLits(m.info, body), p)
}

// litsPass reports whether one of the function literals lits passes on
// the nil result of a call of p (returnsWrapper).
func (m *Result) litsPass(lits []*ast.FuncLit, p *types.Var) bool {
	for _, lit := range lits {
		found := false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
				found = found || m.passesCallOf(r.Results[len(r.Results)-1], r.Pos(), p)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// passesCallOf reports whether a returned expression at pos is the result
// of a call of p, or a variable one of whose definitions reaching pos is
// such a call.
func (m *Result) passesCallOf(e ast.Expr, pos token.Pos, p *types.Var) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		return m.callsVar(e, p)
	case *ast.Ident:
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		for _, d := range m.defs().Reaching(v, pos) {
			if call, ok := ast.Unparen(d.RHS).(*ast.CallExpr); ok && d.Index <= 0 && m.callsVar(call, p) {
				return true
			}
		}
	}
	return false
}

// returnsFunc reports whether one of sig's results is a function: only
// then can a body return a function literal.
func returnsFunc(sig *types.Signature) bool {
	for i := range sig.Results().Len() {
		if _, ok := sig.Results().At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// returnedLits returns the function literals (possibly converted:
// Handler(func(...) error { ... })) that body returns, not those they
// return in turn.
func returnedLits(info *types.Info, body *ast.BlockStmt) []*ast.FuncLit {
	var out []*ast.FuncLit
	ast.Inspect(body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return true
		}
		e := ast.Unparen(ret.Results[0])
		if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 {
			if tv, ok := info.Types[conv.Fun]; ok && tv.IsType() {
				e = ast.Unparen(conv.Args[0])
			}
		}
		if lit, ok := e.(*ast.FuncLit); ok {
			out = append(out, lit)
			return false
		}
		return true
	})
	return out
}
