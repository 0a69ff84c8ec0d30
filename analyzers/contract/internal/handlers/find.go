package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// findHandlers marks the function bodies of the package passed to a
// handler parameter.
func (m *Result) findHandlers(decls []*ast.FuncDecl) {
	m.handlers = make(map[*ast.BlockStmt]*Handler)
	m.payloadParams = make(map[*types.Var]bool)
	if len(m.handlerParams) == 0 && len(m.imported.Handlers) == 0 {
		return
	}
	for _, s := range m.syn.Sites {
		if kv, ok := s.Node.(*ast.KeyValueExpr); ok {
			m.handlerInField(kv) // &Worker{handle: s.handleX}
			continue
		}
		call, ok := s.Node.(*ast.CallExpr)
		if !ok {
			continue
		}
		fn := gotypes.StaticCallee(m.info, call)
		if fn == nil {
			continue
		}
		params, ack, payload := m.handlerParamsOf(fn)
		bus := caller{name: goast.CalleeText(call.Fun), ack: ack, onErr: m.onErrorOf(fn)}
		for _, i := range params {
			if i < len(call.Args) {
				m.markHandler(call.Args[i], call, bus, payload, 0)
			}
		}
	}
}

// caller is a function with handler parameters as the handlers passed to
// it see it: its name as written, its Ack on nil, what it does on error.
type caller struct {
	name  string
	ack   token.Pos
	onErr profile.Settlement
}

// markHandler marks the function a handler argument denotes, and, when
// the argument is a call of middleware (a function that returns a closure
// calling its handler parameter and returning its result), or of the
// middleware a factory returns (Timeout(d)(h)), the handler the
// middleware wraps.
func (m *Result) markHandler(arg ast.Expr, at *ast.CallExpr, bus caller, payload []int, depth int) {
	if depth > defs.MaxDepth {
		return
	}
	if call, ok := ast.Unparen(arg).(*ast.CallExpr); ok {
		if fn := gotypes.StaticCallee(m.info, call); fn != nil {
			m.foreignMiddleware(fn, at, bus.name, bus.ack) // its closure, a handler without a message (shapes.go)
			for _, j := range m.middlewareParams(fn) {
				if j < len(call.Args) {
					m.markHandler(call.Args[j], at, bus, payload, depth+1)
				}
			}
		} else if inner, ok := ast.Unparen(call.Fun).(*ast.CallExpr); ok && len(call.Args) == 1 {
			if fn := gotypes.StaticCallee(m.info, inner); fn != nil && m.isFactory(fn) {
				m.markHandler(call.Args[0], at, bus, payload, depth+1) // Timeout(d)(h)
			}
		}
		return
	}
	if values, ok := m.routeValues(arg); ok {
		for _, v := range values {
			m.markHandler(v, at, bus, payload, depth+1)
		}
		return
	}
	m.foreignHandler(arg, at, bus.name, bus.ack) // a function of another package
	body, ft := m.handlerBody(arg)
	if body == nil || m.handlers[body] != nil {
		return
	}
	h := &Handler{Caller: bus.name, Ack: bus.ack, OnError: bus.onErr}
	if ft.Results != nil && len(ft.Results.List) > 0 {
		h.Bool = gotypes.IsBool(m.info.TypeOf(ft.Results.List[len(ft.Results.List)-1].Type))
	}
	h.Msgs = m.msgs.MessageParams(ft)
	vars := messages.ParamVars(m.info, ft)
	for _, j := range payload {
		if j < len(vars) && vars[j] != nil {
			h.Payload = append(h.Payload, vars[j])
		}
	}
	m.handlers[body] = h
	for _, v := range h.Payload {
		m.payloadParams[v] = true
	}
}

// routeValues returns the function values a handler argument takes from a
// map or slice of routes: routes[subject], or the value of a range over
// routes, where routes is a local variable built from a composite literal
// or by stores into its elements.
func (m *Result) routeValues(arg ast.Expr) ([]ast.Expr, bool) {
	var container ast.Expr
	switch a := ast.Unparen(arg).(type) {
	case *ast.IndexExpr:
		if t := m.info.TypeOf(a.X); gotypes.IsValid(t) {
			switch t.Underlying().(type) {
			case *types.Map, *types.Slice:
				container = a.X
			}
		}
	case *ast.SelectorExpr:
		return m.routeFields(a)
	case *ast.Ident:
		v, ok := m.info.Uses[a].(*types.Var)
		if !ok {
			return nil, false
		}
		defs := m.defs().Reaching(v, a.Pos())
		if len(defs) != 1 {
			return nil, false
		}
		if rs, ok := defs[0].Container.(*ast.RangeStmt); ok && defs[0].RHS == nil && rs.Value != nil && m.info.Defs[identOf(rs.Value)] == v {
			container = rs.X
		}
	}
	id, ok := ast.Unparen(container).(*ast.Ident)
	if !ok {
		return nil, false
	}
	routes, ok := m.info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	var out []ast.Expr
	for _, a := range m.defs().Defs(routes) {
		lit, ok := ast.Unparen(a.RHS).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			out = append(out, elt)
		}
	}
	for _, s := range m.defs().Stores(routes) {
		if !s.ViaCall {
			out = append(out, s.RHS) // routes["orders.created"] = s.handleCreated
		}
	}
	return out, true
}

// routeFields returns the values a field of route structs may hold, for a
// selector r.Handler where r ranges over a table of struct literals:
//
//	routes := []Route{{Durable: "quotes", Handler: quotes.Handle}, ...}
//	for _, r := range routes { b.Dispatch(ctx, msg, r.Handler) }
func (m *Result) routeFields(sel *ast.SelectorExpr) ([]ast.Expr, bool) {
	s := m.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return nil, false
	}
	field := s.Obj()
	elems, ok := m.routeValues(sel.X)
	if !ok {
		return nil, false
	}
	var out []ast.Expr
	for _, e := range elems {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X // &Route{...}
		}
		lit, ok := ast.Unparen(e).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for i, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && m.info.Uses[key] == field {
					out = append(out, kv.Value)
				}
			} else if i == s.Index()[0] {
				out = append(out, elt)
			}
		}
	}
	return out, true
}

// handlerInField marks the handler a composite literal stores in a
// handler field of the package.
func (m *Result) handlerInField(kv *ast.KeyValueExpr) {
	key, ok := kv.Key.(*ast.Ident)
	if !ok {
		return
	}
	field, ok := m.info.Uses[key].(*types.Var)
	if !ok || !m.handlerFieldAcks[field].IsValid() {
		return
	}
	if body, _ := m.handlerBody(kv.Value); body != nil && m.handlers[body] == nil {
		m.handlers[body] = &Handler{Caller: "the " + field.Name() + " field's caller", Ack: m.handlerFieldAcks[field],
			OnError: m.onErrorAt(m.handlerFieldAcks[field])}
	}
}

// handlerBody returns the body of the function a handler argument
// denotes: a function literal, or a function or method of the package
// (named, as a method value, or instantiated).
func (m *Result) handlerBody(arg ast.Expr) (*ast.BlockStmt, *ast.FuncType) {
	e := ast.Unparen(arg)
	if lit := defs.FuncLitOf(m.info, m.defs, e); lit != nil {
		return lit.Body, lit.Type // a literal, or a local variable bound to one
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = ast.Unparen(x.X)
	case *ast.IndexListExpr:
		e = ast.Unparen(x.X)
	}
	var obj types.Object
	switch x := e.(type) {
	case *ast.Ident:
		obj = m.info.Uses[x]
	case *ast.SelectorExpr:
		if s := m.info.Selections[x]; s != nil && s.Kind() == types.MethodVal {
			obj = s.Obj()
		} else {
			obj = m.info.Uses[x.Sel]
		}
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, nil
	}
	if d := m.declOf(fn.Origin()); d != nil {
		return d.Body, d.Type
	}
	return nil, nil
}

// handlersInRoutes marks the functions the package stores in a route
// field directly (r.routes["orders.created"] = s.onCreated), or in an
// entry of it (r.routes[name] = &route{handler: s.onCreated}).
func (m *Result) handlersInRoutes() {
	if len(m.handlerFieldAcks) == 0 {
		return
	}
	for _, f := range m.syn.Flow {
		as, ok := f.Node.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, l := range as.Lhs {
			field := m.routeFieldOf(l)
			if field == nil || !m.handlerFieldAcks[field].IsValid() {
				continue
			}
			values := m.entryHandlers(as.Rhs[i]) // &route{handler: s.onCreated}
			if values == nil {
				values = as.Rhs[i:][:1]
			}
			for _, v := range values {
				if body, _ := m.handlerBody(v); body != nil && m.handlers[body] == nil {
					m.handlers[body] = &Handler{Caller: "the " + field.Name() + " field's caller", Ack: m.handlerFieldAcks[field],
						OnError: m.onErrorAt(m.handlerFieldAcks[field])}
				}
			}
		}
	}
}
