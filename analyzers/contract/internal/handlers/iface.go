package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"

	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// Handler parameters that a function hands on, and those of interface
// methods (CONTRACT.md version 3, "Handlers, wider").
//
// A function that passes its func-typed parameter to a handler parameter
// of another function (Subscribe handing h to the dispatch its consumer
// callback calls) has a handler parameter too, with the other's Ack.
//
// A func-typed parameter of an interface method is a handler parameter
// when a type implementing the interface is a handler caller for it: the
// service that registers with s.bus.Subscribe(subj, h), bus a Subscriber
// interface, registers a handler when *NatsBus, which implements
// Subscriber, Acks what h returns nil for. The implementations looked at
// are the named types of the package and the types whose methods the facts
// of the dependencies mark (the implementation must be visible from the
// package that calls the interface method: declared there, or in a package
// it imports, directly or not). An interface method of the package with
// such an implementation gets the fact itself, for the packages that
// import the interface alone.

// handlerParamsOf returns fn's handler parameters and its Ack (any
// package; an interface method through its implementations).
func (m *Result) handlerParamsOf(fn *types.Func) (params []int, ack token.Pos, payload []int) {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		if hp := m.handlerParams[fn]; hp != nil {
			return hp.params, hp.ack, hp.payload
		}
		return nil, token.NoPos, nil
	}
	if f, ok := m.imported.Handlers[fn]; ok {
		if f.AckFn != nil {
			return f.Params, m.set.SiteIn(f.AckFn, f.Line, f.Col), f.Payload
		}
		if f.File != "" {
			return f.Params, m.set.SiteInFile(fn, f.File, f.Line, f.Col), f.Payload
		}
		return f.Params, m.set.SiteIn(fn, f.Line, f.Col), f.Payload
	}
	if iface := interfaceOf(fn); iface != nil {
		for _, impl := range m.importedImpls(iface, fn) {
			return m.handlerParamsOf(impl)
		}
	}
	return nil, token.NoPos, nil
}

// onErrorOf returns what fn (any package; an interface method through its
// implementations) does with its handler parameters' error (onerror.go).
func (m *Result) onErrorOf(fn *types.Func) profile.Settlement {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.HandlerOnError(fn)
	}
	if f, ok := m.imported.Handlers[fn]; ok {
		return f.OnError
	}
	if iface := interfaceOf(fn); iface != nil {
		for _, impl := range m.importedImpls(iface, fn) {
			return m.onErrorOf(impl)
		}
	}
	return ""
}

// interfaceOf returns the interface fn is a method of, or nil.
func interfaceOf(fn *types.Func) *types.Interface {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	iface, _ := recv.Type().Underlying().(*types.Interface)
	return iface
}

// importedImpls returns the methods named like m of the dependencies'
// types that implement iface and have handler parameters (facts), in a
// deterministic order.
func (m *Result) importedImpls(iface *types.Interface, method *types.Func) []*types.Func {
	var out []*types.Func
	for impl := range m.imported.Handlers {
		if impl.Name() == method.Name() && implements(impl, iface) {
			out = append(out, impl)
		}
	}
	slices.SortFunc(out, func(a, b *types.Func) int { return goast.ComparePos(m.fset, a.Pos(), b.Pos()) })
	return out
}

// implements reports whether the receiver type of method fn, or a pointer
// to it, implements iface.
func implements(fn *types.Func, iface *types.Interface) bool {
	recv := fn.Signature().Recv()
	if recv == nil || iface.NumMethods() == 0 {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Interface); ok {
		return false
	}
	return types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface)
}

// forwardedParam returns the Ack of the handler parameter of another
// function (any package) that body passes p to (dispatch(ctx, msg, h)),
// or an adapter literal returning p's result to (r.Handle(subj, func(ctx,
// msg) error { ...decode...; return h(ctx, v) })), or token.NoPos; and
// what that function does with the error.
func (m *Result) forwardedParam(body *ast.BlockStmt, p *types.Var) (token.Pos, profile.Settlement) {
	ack := token.NoPos
	var onErr profile.Settlement
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || ack.IsValid() {
			return !ack.IsValid()
		}
		fn := gotypes.StaticCallee(m.info, call)
		if fn == nil {
			return true
		}
		params, at, _ := m.handlerParamsOf(fn)
		for _, j := range params {
			if j < len(call.Args) && m.isOrWraps(call.Args[j], p) && at.IsValid() {
				ack, onErr = at, m.onErrorOf(fn)
			}
		}
		return !ack.IsValid()
	})
	return ack, onErr
}

func identIs(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// inferInterfaceParams marks the handler parameters of the methods of the
// package's interfaces that a visible implementation has.
func (m *Result) inferInterfaceParams() {
	scope := m.pkg.Scope()
	var impls []*types.Func
	for fn := range m.handlerParams {
		if fn.Signature().Recv() != nil {
			impls = append(impls, fn)
		}
	}
	for impl := range m.imported.Handlers {
		impls = append(impls, impl)
	}
	slices.SortFunc(impls, func(a, b *types.Func) int { return goast.ComparePos(m.fset, a.Pos(), b.Pos()) })
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumExplicitMethods() {
			method := iface.ExplicitMethod(i)
			if !hasErrorFuncParam(method) {
				continue
			}
			for _, impl := range impls {
				if impl.Name() != method.Name() || !implements(impl, iface) {
					continue
				}
				if params, ack, payload := m.handlerParamsOf(impl); len(params) > 0 && m.handlerParams[method] == nil {
					m.handlerParams[method] = &handlerParams{params: slices.Clone(params), ack: ack, payload: payload, onErr: m.onErrorOf(impl)}
				}
			}
		}
	}
}

// maxForward bounds the rounds of forwardedParam: each round follows one
// more function that hands a handler on.
const maxForward = defs.MaxDepth

// inferForwarded marks the parameters the package's functions pass to a
// handler parameter, and reports whether it marked any.
func (m *Result) inferForwarded(decls []*ast.FuncDecl) bool {
	changed := false
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil || !hasErrorFuncParam(fn) {
			continue
		}
		sig := fn.Signature()
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			hp := m.handlerParams[fn]
			if !ReturnsError(p.Type()) || (hp != nil && slices.Contains(hp.params, i)) {
				continue
			}
			ack, onErr := m.forwardedParam(d.Body, p)
			if !ack.IsValid() {
				continue
			}
			if hp == nil {
				hp = &handlerParams{ack: ack, onErr: onErr}
				m.handlerParams[fn] = hp
			}
			hp.params = append(hp.params, i)
			changed = true
		}
	}
	return changed
}

// inferHandOns runs the inferences of this file after the package's
// direct handler callers are known: functions that hand a handler on, to
// a fixpoint, the interface methods, then the functions that hand a
// handler on to those.
func (m *Result) inferHandOns(decls []*ast.FuncDecl) {
	for round := 0; round < maxForward && m.inferForwarded(decls); round++ {
	}
	m.inferInterfaceParams()
	for round := 0; round < maxForward && m.inferForwarded(decls); round++ {
	}
}
