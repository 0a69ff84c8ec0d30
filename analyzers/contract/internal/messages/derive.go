package messages

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
)

// derivation answers "which message variables does this value derive
// from" (the "same message" fine point) for one query. Its memo lives only
// as long as the query, so that concurrent checks share nothing mutable.
type derivation struct {
	m    *Table
	memo map[*types.Var][]*types.Var
	seen map[*types.Var]bool // cycle guard
}

func (m *Table) newDerivation() *derivation {
	return &derivation{m: m, memo: make(map[*types.Var][]*types.Var), seen: make(map[*types.Var]bool)}
}

// CallDeps returns the message variables the operands of a call
// derive from: its arguments and, for a function literal, the variables it
// captures.
func (m *Table) CallDeps(call *ast.CallExpr) []*types.Var {
	d := m.newDerivation()
	var out []*types.Var
	for _, a := range call.Args {
		out = d.expr(a, nil, out)
	}
	if lit := defs.FuncLitOf(m.info, m.defs, call.Fun); lit != nil {
		out = d.expr(lit.Body, lit, out)
	}
	return out
}

// Deps returns the message variables e derives from: message
// variables it names (or slices and maps of them), and those the local
// variables it names were built from (data := msg.Data(),
// dm := nats.NewMsg(...); dm.Data = msg.Data). The result is sorted by
// position.
func (m *Table) Deps(e ast.Expr) []*types.Var {
	return m.newDerivation().expr(e, nil, nil)
}

// expr adds to out the message variables n derives from. Inside the
// function literal lit, variables the literal declares are skipped: only
// what it captures counts.
func (d *derivation) expr(n ast.Node, lit *ast.FuncLit, out []*types.Var) []*types.Var {
	m := d.m
	if n == nil || m.info == nil {
		return out
	}
	ast.Inspect(n, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok || v.IsField() {
			return true
		}
		if lit != nil && lit.Pos() <= v.Pos() && v.Pos() < lit.End() {
			return true
		}
		for _, dep := range d.variable(v) {
			out = AddVar(out, dep)
		}
		return true
	})
	return out
}

// variable returns the message variables v derives from (v itself if it
// holds messages), through all its definitions and field stores.
func (d *derivation) variable(v *types.Var) []*types.Var {
	m := d.m
	if deps, ok := d.memo[v]; ok {
		return deps
	}
	if d.seen[v] {
		return nil // cycle: the other definitions answer
	}
	d.seen[v] = true
	var deps []*types.Var
	if m.HoldsMessages(v.Type(), 0) {
		deps = AddVar(deps, v)
	}
	if v.Parent() != m.pkg.Scope() { // package variables: origin unknown
		for _, a := range m.defs().Defs(v) {
			if m.IsMessage(v.Type()) && m.IsMessageVar(a.RHS) {
				// prev = msg copies a delivery, it builds nothing from it:
				// in a loop prev is another delivery by the time it is
				// used, so the two stay distinct messages.
				continue
			}
			deps = d.expr(a.RHS, nil, deps)
		}
		for _, s := range m.FieldStores(v) {
			deps = d.expr(s.RHS, nil, deps)
		}
	}
	delete(d.seen, v)
	d.memo[v] = deps
	return deps
}

// FieldStores returns the stores into fields of v (from the flow index):
// the arguments of calls on a field of a message are not stores into it.
func (m *Table) FieldStores(v *types.Var) []defs.FieldStore {
	stores := m.defs().Stores(v)
	if len(stores) == 0 || !slices.ContainsFunc(stores, func(s defs.FieldStore) bool { return s.ViaCall }) || !m.IsMessage(v.Type()) {
		return stores
	}
	return slices.DeleteFunc(slices.Clone(stores), func(s defs.FieldStore) bool { return s.ViaCall })
}
