package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
)

// Routes kept in maps (CONTRACT.md version 3, "Handlers, wider"): a router
// keeps its handlers in a struct field that is a map (or slice) of
// functions returning an error, and a dispatch method looks one up and
// Acks when it returns nil:
//
//	func (r *Router) Handle(subj string, h HandlerFunc) { r.routes[subj] = h }
//	func (r *Router) dispatch(ctx context.Context, m *nats.Msg) {
//		h, ok := r.routes[m.Subject]
//		...
//		if err := h(ctx, m); err == nil { m.Ack() }
//	}
//
// Such a field is a handler field like a plain func-typed one: a function
// that stores its parameter in it (directly, or in a literal that returns
// the parameter's result: the generic registrar's decoding adapter) has a
// handler parameter, and a function stored in it by the package is a
// handler. A lookup counts when it is called through the index
// (r.routes[k](ctx, m)) or through a local variable one of whose
// definitions is the lookup.

// routeFieldOf returns the struct field that e indexes when it is a map or
// slice of functions returning an error (r.routes[subj]), or nil.
func (m *Result) routeFieldOf(e ast.Expr) *types.Var {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := m.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	var elem types.Type
	switch u := s.Type().Underlying().(type) {
	case *types.Map:
		elem = u.Elem()
	case *types.Slice:
		elem = u.Elem()
	default:
		return nil
	}
	if !ReturnsError(elem) {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// indexRouteLookups records the local variables of the package defined by
// a lookup in a route field (h, ok := r.routes[subj]).
func (m *Result) indexRouteLookups() {
	m.routeVars = make(map[*types.Var]*types.Var)
	for _, f := range m.syn.Flow {
		as, ok := f.Node.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			continue
		}
		if field := m.routeFieldOf(as.Rhs[0]); field != nil {
			if v := defs.VarOf(m.info, as.Lhs[0]); v != nil {
				m.routeVars[v] = field
			}
		}
	}
}

// calledRoute returns the route field whose handler call calls, or nil.
func (m *Result) calledRoute(call *ast.CallExpr) *types.Var {
	if f := m.routeFieldOf(call.Fun); f != nil {
		return f
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if v, ok := m.info.Uses[id].(*types.Var); ok {
			return m.routeVars[v]
		}
	}
	return nil
}

// storedInRoute returns the Ack of the route field that body stores p in
// (r.routes[subj] = p, or a literal returning p's result), or token.NoPos.
func (m *Result) storedInRoute(body *ast.BlockStmt, p *types.Var, fields map[*types.Var]token.Pos) token.Pos {
	ack := token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || ack.IsValid() || len(as.Lhs) != len(as.Rhs) {
			return !ack.IsValid()
		}
		for i, l := range as.Lhs {
			if f := m.routeFieldOf(l); f != nil && fields[f].IsValid() && m.isOrWraps(as.Rhs[i], p) {
				ack = fields[f]
			}
		}
		return true
	})
	return ack
}

// isOrWraps reports whether e is p, or a function literal (possibly
// converted) that returns the result of a call of p.
func (m *Result) isOrWraps(e ast.Expr, p *types.Var) bool {
	e = ast.Unparen(e)
	if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv, ok := m.info.Types[conv.Fun]; ok && tv.IsType() {
			e = ast.Unparen(conv.Args[0])
		}
	}
	isP := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && m.info.Uses[id] == p
	}
	if isP(e) {
		return true
	}
	lit, ok := e.(*ast.FuncLit)
	if !ok {
		return false
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
			if call, ok := ast.Unparen(r.Results[len(r.Results)-1]).(*ast.CallExpr); ok && isP(call.Fun) {
				found = true
			}
		}
		return !found
	})
	return found
}
