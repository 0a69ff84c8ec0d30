package contract

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
)

// assignment is one definition of a variable: v := rhs, v = rhs,
// var v = rhs, or the index-th value of a tuple-valued rhs.
type assignment struct {
	pos       token.Pos // where the definition takes effect: the end of its statement
	container ast.Node  // innermost block, clause or statement scope holding it
	rhs       ast.Expr  // nil when the value's origin is unknown (range, op-assign)
	index     int       // result index when rhs is a tuple-valued call, else -1
}

// flowIndex records every definition of every variable of the package, so
// that the value of a variable at a point can be traced to the definitions
// that may reach it.
type flowIndex struct {
	defs   map[*types.Var][]*assignment
	stores map[*types.Var][]fieldStore // stores into fields or elements of a variable
	slab   []assignment                // where add puts the next definitions
}

// slabSize is how many definitions add allocates at once: a large package
// has a hundred thousand, each allocated on its own before.
const slabSize = 1024

// defs returns the package's flow index, built on first use while the
// model runs: most packages of a program never need it. Once the model is
// frozen it is only read; a package that did not build it then gets one
// of its own for the query, not kept.
func (m *Model) defs() *flowIndex {
	if m.flow != nil {
		return m.flow
	}
	nodes := m.syn.Flow
	if m.frozen {
		nodes = syntax.NewIndex(m.files, m.testFuncs).Flow // dropped when the model was frozen
	}
	idx := newFlowIndex(m.info, nodes)
	if !m.frozen {
		m.flow = idx
	}
	return idx
}

func newFlowIndex(info *types.Info, nodes []syntax.FlowNode) *flowIndex {
	// Most definitions are of variables defined once.
	idx := &flowIndex{defs: make(map[*types.Var][]*assignment, len(nodes)), stores: make(map[*types.Var][]fieldStore)}
	for _, fn := range nodes {
		switch n := fn.Node.(type) {
		case *ast.AssignStmt:
			idx.addAssign(info, n, fn.Container)
			idx.addStores(info, n)
		case *ast.ExprStmt:
			idx.addCallStores(info, n)
		case *ast.ValueSpec:
			idx.addValueSpec(info, n, fn.Container)
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := varOf(info, e); v != nil {
					idx.add(v, assignment{pos: n.X.End(), container: n, index: -1})
				}
			}
		}
	}
	return idx
}

// addStores records v.Subject = e and v.Header["k"] = e.
func (idx *flowIndex) addStores(info *types.Info, as *ast.AssignStmt) {
	if len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, l := range as.Lhs {
		if _, plain := ast.Unparen(l).(*ast.Ident); plain {
			continue // a definition of v, which defs has
		}
		if root, field := storeRoot(info, l); root != nil {
			idx.stores[root] = append(idx.stores[root], fieldStore{field: field, rhs: as.Rhs[i]})
		}
	}
}

// addCallStores records v.Header.Set("k", e), v.Header.Add(...): the
// arguments of a call on a field of v.
func (idx *flowIndex) addCallStores(info *types.Info, es *ast.ExprStmt) {
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if root, _ := storeRoot(info, sel.X); root != nil {
		for _, a := range call.Args {
			idx.stores[root] = append(idx.stores[root], fieldStore{rhs: a, viaCall: true})
		}
	}
}

func (idx *flowIndex) add(v *types.Var, a assignment) {
	if len(idx.slab) == cap(idx.slab) {
		idx.slab = make([]assignment, 0, slabSize)
	}
	idx.slab = append(idx.slab, a)
	idx.defs[v] = append(idx.defs[v], &idx.slab[len(idx.slab)-1])
}

func (idx *flowIndex) addAssign(info *types.Info, as *ast.AssignStmt, container ast.Node) {
	switch as.Tok {
	case token.ASSIGN, token.DEFINE:
	default: // op-assignments do not produce errors
		for _, l := range as.Lhs {
			if v := varOf(info, l); v != nil {
				idx.add(v, assignment{pos: as.End(), container: container, index: -1})
			}
		}
		return
	}
	if len(as.Lhs) == len(as.Rhs) {
		for i, l := range as.Lhs {
			if v := varOf(info, l); v != nil {
				idx.add(v, assignment{pos: as.End(), container: container, rhs: as.Rhs[i], index: -1})
			}
		}
		return
	}
	if len(as.Rhs) == 1 {
		rhs := as.Rhs[0]
		if _, isCall := ast.Unparen(rhs).(*ast.CallExpr); !isCall {
			rhs = nil // v, ok := m[k] / x.(T) / <-ch: no error flows from a carrier here
		}
		for i, l := range as.Lhs {
			if v := varOf(info, l); v != nil {
				idx.add(v, assignment{pos: as.End(), container: container, rhs: rhs, index: i})
			}
		}
	}
}

func (idx *flowIndex) addValueSpec(info *types.Info, vs *ast.ValueSpec, container ast.Node) {
	for i, name := range vs.Names {
		v, _ := info.Defs[name].(*types.Var)
		if v == nil {
			continue
		}
		a := assignment{pos: vs.End(), container: container, index: -1}
		switch {
		case len(vs.Values) == len(vs.Names):
			a.rhs = vs.Values[i]
		case len(vs.Values) == 1:
			a.rhs, a.index = vs.Values[0], i
		}
		idx.add(v, a)
	}
}

// varOf returns the variable an lvalue expression names, if any.
func varOf(info *types.Info, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if v, ok := info.Defs[id].(*types.Var); ok {
		return v
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// reaching returns the definitions of v that may reach position at. A
// definition is dropped when a later one, before at, sits in a scope that
// also holds at: that one runs unconditionally on the way and replaces it.
// Package-level variables keep all their definitions.
func (idx *flowIndex) reaching(v *types.Var, at token.Pos) []*assignment {
	defs := idx.defs[v]
	var out []*assignment
	for i, a := range defs {
		if a.pos >= at {
			continue
		}
		if _, pkgLevel := a.container.(*ast.File); pkgLevel {
			out = append(out, a)
			continue
		}
		killed := false
		for j, b := range defs {
			if j == i || b.pos <= a.pos || b.pos >= at {
				continue
			}
			if b.container.Pos() <= at && at < b.container.End() {
				killed = true
				break
			}
		}
		if !killed {
			out = append(out, a)
		}
	}
	return out
}
