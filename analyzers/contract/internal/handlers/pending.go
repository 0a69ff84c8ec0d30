package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Registrations through an interface whose implementation is not in sight
// (CONTRACT.md version 3, "Through an interface"): the service declares
// only `bus Bus` and calls s.bus.Subscribe(subj, s.handle); *NatsBus,
// which Acks what the handler returns nil for, is in a package the
// service does not import, and main wires the two. Here the registration
// is pending: the model solves the handler's paths as if it were one, and
// ackretryable exports what the handler would drop (its RegistrationFact),
// for the first package that sees both the registration and an
// implementation to report, at the registration.

// PendingRegistrations returns the package's pending registrations, in
// source order.
func (m *Result) PendingRegistrations() []Pending { return m.pending }

// findPendings records the package's pending registrations.
func (m *Result) findPendings() {
	if !m.mayRetry {
		return // a handler can only drop a retryable error where one may be
	}
	for _, s := range m.syn.Sites {
		call, ok := s.Node.(*ast.CallExpr)
		if !ok || s.Body == nil {
			continue
		}
		if fn := gotypes.StaticCallee(m.info, call); fn != nil && hasErrorFuncParam(fn) {
			m.findPending(call, fn, s.Body)
		}
	}
}

// findPending records the pending registration call makes, if any.
func (m *Result) findPending(call *ast.CallExpr, fn *types.Func, body *ast.BlockStmt) {
	iface := interfaceOf(fn)
	if iface == nil {
		return
	}
	named := namedInterface(fn)
	d := m.syn.DeclOf[body]
	if named == nil || d == nil {
		return
	}
	if params, _, _ := m.handlerParamsOf(fn); len(params) > 0 || hasImplementation(m.pkg, iface) || hasImplementation(named.Pkg(), iface) {
		return // a handler parameter, or an implementation in sight that is no handler caller
	}
	sig := fn.Signature()
	for j := range sig.Params().Len() {
		if j >= len(call.Args) || !ReturnsError(sig.Params().At(j).Type()) {
			continue
		}
		hb, _ := m.handlerBody(call.Args[j])
		if hb == nil || m.handlers[hb] != nil || slices.ContainsFunc(m.pending, func(p Pending) bool { return p.Body == hb }) {
			continue
		}
		m.pending = append(m.pending, Pending{Call: call, Decl: d, Method: fn, Param: j, Body: hb,
			Caller: goast.CalleeText(call.Fun), Iface: named})
	}
}

// namedInterface returns the named interface type fn is a method of, or
// nil.
func namedInterface(fn *types.Func) *types.TypeName {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	if n, ok := types.Unalias(recv.Type()).(*types.Named); ok {
		return n.Obj()
	}
	return nil
}

// ImplementationCaller returns a method of a type visible to the package
// (its own, or a dependency's through facts) that implements the named
// interface iface and is a handler caller for parameter param of its
// method name, with its Ack; nil when there is none.
func (m *Result) ImplementationCaller(iface *types.TypeName, name string, param int) (*types.Func, token.Pos) {
	it, ok := iface.Type().Underlying().(*types.Interface)
	if !ok {
		return nil, token.NoPos
	}
	var cands []*types.Func
	for fn := range m.handlerParams {
		cands = append(cands, fn)
	}
	for fn := range m.imported.Handlers {
		cands = append(cands, fn)
	}
	slices.SortFunc(cands, func(a, b *types.Func) int { return goast.ComparePos(m.fset, a.Pos(), b.Pos()) })
	for _, fn := range cands {
		if fn.Name() != name || interfaceOf(fn) != nil || !implements(fn, it) {
			continue
		}
		if params, ack, _ := m.handlerParamsOf(fn); slices.Contains(params, param) {
			return fn, ack
		}
	}
	return nil, token.NoPos
}

// hasImplementation reports whether pkg declares a named type, not an
// interface, that (or a pointer to which) implements iface: an
// implementation in sight of the package that calls the interface, next to
// it or next to the interface.
func hasImplementation(pkg *types.Package, iface *types.Interface) bool {
	if pkg == nil || iface.NumMethods() == 0 {
		return false
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, isIface := tn.Type().Underlying().(*types.Interface); isIface {
			continue
		}
		if types.Implements(tn.Type(), iface) || types.Implements(types.NewPointer(tn.Type()), iface) {
			return true
		}
	}
	return false
}
