package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
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
//
// Routes kept as entries (Watermill's shape): the map or slice holds
// structs, or pointers to structs, one of whose fields is a function
// returning an error, stored with the route's other data:
//
//	r.routes[name] = &route{subject: subj, handler: h}
//	...
//	rt, ok := r.routes[name]
//	h := rt.handler
//
// The route is still the map or slice field, not the struct's func field:
// the same entry type kept in a second map whose handlers' errors are only
// logged (auditors) or Nakked (dry runs) is another route, and its entries
// are no handlers. A handler is the func field of an entry looked up in
// the route (rt.handler, r.routes[name].handler), and is stored by a
// composite literal of the entry that holds it in such a field.

// routeFieldOf returns the struct field that e indexes when it is a map or
// slice of functions returning an error, or of route entries
// (r.routes[subj]), or nil.
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
	if !ReturnsError(elem) && !isRouteEntry(elem) {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// isRouteEntry reports whether t is a struct, or a pointer to one, with a
// field that is a function returning an error.
func isRouteEntry(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if ReturnsError(st.Field(i).Type()) {
			return true
		}
	}
	return false
}

// indexRouteLookups records the local variables of the package defined
// by a lookup in a route field (h, ok := r.routes[subj]), and the lookup
// functions: functions of the package whose first result, a function
// returning an error, derives from a route field on some return. Derives
// means: the field indexed, a range over it, a local defined so, a call of
// another lookup function, or middleware applied to one of these (a call
// that takes it and returns a function returning an error:
// h = r.middleware[i](h), Chain(h, mws...)). Followed to a fixpoint, as
// deep as every trace of the model.
func (m *Result) indexRouteLookups() {
	m.routeVars = make(map[*types.Var]*types.Var)
	m.routeFuncs = make(map[*types.Func]*types.Var)
	if !m.looksUpRoutes() {
		return // most packages: no route field is indexed or ranged over
	}
	pending := make([]int, len(m.syn.Flow)) // indexes into the syntax index's Flow: all of them first
	for i := range pending {
		pending[i] = i
	}
	for round := 0; round <= defs.MaxDepth; round++ {
		var changed bool
		pending, changed = m.indexRouteVars(pending)
		if !m.indexRouteFuncs() && !changed {
			return
		}
	}
}

// looksUpRoutes reports whether the package indexes a route field, or
// ranges over one: every route lookup starts at one of those.
func (m *Result) looksUpRoutes() bool {
	for _, ix := range m.syn.SelectorIndexes {
		if m.routeFieldOf(ix) != nil {
			return true
		}
	}
	for _, f := range m.syn.Flow {
		if r, ok := f.Node.(*ast.RangeStmt); ok && r.Value != nil && m.routeContainer(r.X) != nil {
			return true
		}
	}
	return false
}

// indexRouteVars records the locals defined by a route lookup, and
// reports whether it recorded any new one. It looks at the nodes of the
// Flow index in pending and returns those whose answer may change in a
// later round: the ones that read the lookups recorded so far (routeOf
// sets readsLookups). Any other answers the same in every round.
func (m *Result) indexRouteVars(pending []int) (next []int, changed bool) {
	for _, i := range pending {
		var lhs ast.Expr
		var field *types.Var
		m.readsLookups = false
		switch n := m.syn.Flow[i].Node.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) > 0 {
				lhs, field = n.Lhs[0], m.routeOf(n.Rhs[0], 0)
			}
		case *ast.RangeStmt:
			if n.Value != nil {
				lhs, field = n.Value, m.routeContainer(n.X) // for _, h := range r.routes
			}
		}
		if field == nil {
			if m.readsLookups {
				next = append(next, i)
			}
			continue
		}
		if v := defs.VarOf(m.info, lhs); v != nil && m.routeVars[v] == nil {
			m.routeVars[v], changed = field, true
		}
	}
	return next, changed
}

// indexRouteFuncs records the package's lookup functions, and reports
// whether it recorded any new one.
func (m *Result) indexRouteFuncs() bool {
	changed := false
	for fn, d := range m.declByFn {
		res := fn.Signature().Results()
		if m.routeFuncs[fn] != nil || d.Body == nil || res.Len() == 0 || !gotypes.IsValid(res.At(0).Type()) || !ReturnsError(res.At(0).Type()) {
			continue
		}
		for _, ret := range m.returnsOf(d.Body) {
			if len(ret.Results) == res.Len() {
				if field := m.routeOf(ret.Results[0], 0); field != nil {
					m.routeFuncs[fn], changed = field, true
					break
				}
			}
		}
	}
	return changed
}

// routeOf returns the route field e derives from (see indexRouteLookups),
// or nil.
func (m *Result) routeOf(e ast.Expr, depth int) *types.Var {
	if depth > defs.MaxDepth {
		return nil
	}
	if f := m.routeFieldOf(e); f != nil {
		return f
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		m.readsLookups = true
		if len(m.routeVars) == 0 {
			return nil // most packages: no lookup to look up
		}
		if v, ok := m.info.Uses[x].(*types.Var); ok {
			return m.routeVars[v]
		}
	case *ast.SelectorExpr:
		if s := m.info.Selections[x]; s != nil && s.Kind() == types.FieldVal && ReturnsError(s.Type()) {
			return m.routeOf(x.X, depth+1) // rt.handler, rt an entry of the route
		}
	case *ast.CallExpr:
		// A lookup function's first result, and middleware's, is a
		// function returning an error: most calls are neither.
		t := m.info.TypeOf(x)
		first := t
		if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
			first = tuple.At(0).Type()
		}
		if !gotypes.IsValid(first) || !ReturnsError(first) {
			return nil
		}
		m.readsLookups = true
		if len(m.routeFuncs) > 0 {
			if fn := gotypes.StaticCallee(m.info, x); fn != nil && m.routeFuncs[fn.Origin()] != nil {
				return m.routeFuncs[fn.Origin()] // h, ok := r.lookup(subj)
			}
		}
		if !gotypes.IsValid(t) || !ReturnsError(t) {
			return nil
		}
		for _, a := range x.Args {
			if f := m.routeOf(a, depth+1); f != nil {
				return f // middleware applied: r.middleware[i](h)
			}
		}
	}
	return nil
}

// routeContainer returns the route field e selects (r.routes), or nil.
func (m *Result) routeContainer(e ast.Expr) *types.Var {
	return m.routeFieldOf(&ast.IndexExpr{X: e})
}

// calledRoute returns the route field whose handler call calls, or nil.
func (m *Result) calledRoute(call *ast.CallExpr) *types.Var {
	return m.routeOf(call.Fun, 0)
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
	if vs := m.entryHandlers(e); vs != nil {
		return slices.ContainsFunc(vs, func(v ast.Expr) bool { return m.isOrWraps(v, p) }) // &route{handler: p}
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

// entryHandlers returns the values a composite literal of a route entry
// (&route{subject: subj, handler: h}, keyed or not) gives its fields that
// are functions returning an error, or nil for any other expression.
func (m *Result) entryHandlers(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	t := m.info.TypeOf(cl)
	if !gotypes.IsValid(t) {
		return nil
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []ast.Expr
	for i, elt := range cl.Elts {
		field := -1
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			key, _ := kv.Key.(*ast.Ident)
			for j := range st.NumFields() {
				if key != nil && m.info.Uses[key] == st.Field(j) {
					field, elt = j, kv.Value
				}
			}
		} else if i < st.NumFields() {
			field = i
		}
		if field >= 0 && ReturnsError(st.Field(field).Type()) {
			out = append(out, elt)
		}
	}
	return out
}
