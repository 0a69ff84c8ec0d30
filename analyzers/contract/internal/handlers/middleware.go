package handlers

import (
	"go/ast"
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
// one of their func-typed parameters.
func (m *Result) inferMiddleware(decls []*ast.FuncDecl) {
	m.middleware = make(map[*types.Func][]int)
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil {
			continue
		}
		for i, p := range messages.ParamVars(m.info, d.Type) {
			if p != nil && ReturnsError(p.Type()) && m.returnsWrapper(d.Body, p) {
				m.middleware[fn] = append(m.middleware[fn], i)
			}
		}
	}
}

// returnsWrapper reports whether body returns a function literal that
// returns the result of a call of p.
func (m *Result) returnsWrapper(body *ast.BlockStmt, p *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || found || len(ret.Results) != 1 {
			return !found
		}
		e := ast.Unparen(ret.Results[0])
		if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 {
			if tv, ok := m.info.Types[conv.Fun]; ok && tv.IsType() {
				e = ast.Unparen(conv.Args[0]) // Handler(func(...) error { ... })
			}
		}
		lit, ok := e.(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
				if call, ok := ast.Unparen(r.Results[len(r.Results)-1]).(*ast.CallExpr); ok && m.callsVar(call, p) {
					found = true
				}
			}
			return !found
		})
		return false
	})
	return found
}
