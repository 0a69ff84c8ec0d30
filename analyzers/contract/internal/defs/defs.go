// Package defs is the contract model's reaching definitions: every
// definition of every variable of a package, and the stores into fields
// and elements of variables, so that the value of a variable at a point
// can be traced to the definitions that may reach it. It reads the syntax
// stage's definitions and the type information.
package defs

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
)

// Assignment is one definition of a variable: v := rhs, v = rhs,
// var v = rhs, or the index-th value of a tuple-valued rhs.
type Assignment struct {
	Pos       token.Pos // where the definition takes effect: the end of its statement
	Container ast.Node  // innermost block, clause or statement scope holding it
	RHS       ast.Expr  // nil when the value's origin is unknown (range, op-assign)
	Index     int       // result index when rhs is a tuple-valued call, else -1
}

// Index records every definition of every variable of the package, so
// that the value of a variable at a point can be traced to the definitions
// that may reach it.
type Index struct {
	defs   map[*types.Var][]*Assignment
	stores map[*types.Var][]FieldStore // stores into fields or elements of a variable
	slab   []Assignment                // where add puts the next definitions
}

// MaxDepth bounds how far every stage traces a value back through
// assignments, wraps and calls.
const MaxDepth = 24

// slabSize is how many definitions add allocates at once: a large package
// has a hundred thousand, each allocated on its own before. The first
// slab is sized by the package's flow nodes instead (about one definition
// each): a slab of 1,024 for a package of ten definitions made the flow
// indexes of a program of a thousand small packages allocate 43 MB.
const slabSize = 1024

// Build indexes the definitions and stores of nodes, the syntax stage's
// Flow.
func Build(info *types.Info, nodes []syntax.FlowNode) *Index {
	// Most definitions are of variables defined once.
	idx := &Index{defs: make(map[*types.Var][]*Assignment, len(nodes)), stores: make(map[*types.Var][]FieldStore),
		slab: make([]Assignment, 0, min(slabSize, len(nodes)+8))}
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
				if v := VarOf(info, e); v != nil {
					idx.add(v, Assignment{Pos: n.X.End(), Container: n, Index: -1})
				}
			}
		}
	}
	return idx
}

// addStores records v.Subject = e and v.Header["k"] = e.
func (idx *Index) addStores(info *types.Info, as *ast.AssignStmt) {
	if len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, l := range as.Lhs {
		if _, plain := ast.Unparen(l).(*ast.Ident); plain {
			continue // a definition of v, which defs has
		}
		if root, field := StoreRoot(info, l); root != nil {
			idx.stores[root] = append(idx.stores[root], FieldStore{Field: field, RHS: as.Rhs[i]})
		}
	}
}

// addCallStores records v.Header.Set("k", e), v.Header.Add(...): the
// arguments of a call on a field of v.
func (idx *Index) addCallStores(info *types.Info, es *ast.ExprStmt) {
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if root, _ := StoreRoot(info, sel.X); root != nil {
		for _, a := range call.Args {
			idx.stores[root] = append(idx.stores[root], FieldStore{RHS: a, ViaCall: true})
		}
	}
}

func (idx *Index) add(v *types.Var, a Assignment) {
	if len(idx.slab) == cap(idx.slab) {
		idx.slab = make([]Assignment, 0, slabSize)
	}
	idx.slab = append(idx.slab, a)
	idx.defs[v] = append(idx.defs[v], &idx.slab[len(idx.slab)-1])
}

func (idx *Index) addAssign(info *types.Info, as *ast.AssignStmt, container ast.Node) {
	switch as.Tok {
	case token.ASSIGN, token.DEFINE:
	default: // op-assignments do not produce errors
		for _, l := range as.Lhs {
			if v := VarOf(info, l); v != nil {
				idx.add(v, Assignment{Pos: as.End(), Container: container, Index: -1})
			}
		}
		return
	}
	if len(as.Lhs) == len(as.Rhs) {
		for i, l := range as.Lhs {
			if v := VarOf(info, l); v != nil {
				idx.add(v, Assignment{Pos: as.End(), Container: container, RHS: as.Rhs[i], Index: -1})
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
			if v := VarOf(info, l); v != nil {
				idx.add(v, Assignment{Pos: as.End(), Container: container, RHS: rhs, Index: i})
			}
		}
	}
}

func (idx *Index) addValueSpec(info *types.Info, vs *ast.ValueSpec, container ast.Node) {
	for i, name := range vs.Names {
		v, _ := info.Defs[name].(*types.Var)
		if v == nil {
			continue
		}
		a := Assignment{Pos: vs.End(), Container: container, Index: -1}
		switch {
		case len(vs.Values) == len(vs.Names):
			a.RHS = vs.Values[i]
		case len(vs.Values) == 1:
			a.RHS, a.Index = vs.Values[0], i
		}
		idx.add(v, a)
	}
}

// VarOf returns the variable an lvalue expression names, if any.
func VarOf(info *types.Info, e ast.Expr) *types.Var {
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

// Reaching returns the definitions of v that may reach position at. A
// definition is dropped when a later one, before at, sits in a scope that
// also holds at: that one runs unconditionally on the way and replaces it.
// Package-level variables keep all their definitions.
func (idx *Index) Reaching(v *types.Var, at token.Pos) []*Assignment {
	defs := idx.defs[v]
	var out []*Assignment
	for i, a := range defs {
		if a.Pos >= at {
			continue
		}
		if _, pkgLevel := a.Container.(*ast.File); pkgLevel {
			out = append(out, a)
			continue
		}
		killed := false
		for j, b := range defs {
			if j == i || b.Pos <= a.Pos || b.Pos >= at {
				continue
			}
			if b.Container.Pos() <= at && at < b.Container.End() {
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

// FieldStore is an assignment to a field (or element) of a variable:
// v.Subject = e, v.Header["k"] = e, or an argument of a call on one of its
// fields, v.Header.Set("k", e).
type FieldStore struct {
	Field   string // the field selected on v (Subject, or Header for v.Header["k"]); empty for v[i]
	RHS     ast.Expr
	ViaCall bool // an argument of a call on a field: v.Header.Set("k", e)
}

// StoreRoot returns the variable at the root of a field or element lvalue
// (v.Subject, v.Header["k"]) and the first field selected, or nil.
func StoreRoot(info *types.Info, e ast.Expr) (*types.Var, string) {
	field := ""
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			field = x.Sel.Name
			e = x.X
			continue
		case *ast.IndexExpr:
			field = ""
			e = x.X
			continue
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			if v == nil || v.IsField() {
				return nil, ""
			}
			return v, field
		}
		return nil, ""
	}
}

// Defs returns every definition of v.
func (idx *Index) Defs(v *types.Var) []*Assignment { return idx.defs[v] }

// Stores returns the stores into fields or elements of v.
func (idx *Index) Stores(v *types.Var) []FieldStore { return idx.stores[v] }

// FuncLitOf returns the function literal a callee expression denotes: the
// literal itself, or a local variable one of whose definitions reaching the
// call binds a literal. idx is called only for a variable: the index is
// built on demand.
func FuncLitOf(info *types.Info, idx func() *Index, fun ast.Expr) *ast.FuncLit {
	switch f := ast.Unparen(fun).(type) {
	case *ast.FuncLit:
		return f
	case *ast.Ident:
		v, ok := info.Uses[f].(*types.Var)
		if !ok {
			return nil
		}
		for _, a := range idx().Reaching(v, f.Pos()) {
			if lit, ok := ast.Unparen(a.RHS).(*ast.FuncLit); ok && a.Index < 0 {
				return lit
			}
		}
	}
	return nil
}

// MayBeFuncValue reports whether a called function expression that
// goast.CalledName reports as an identifier may be a func value (a
// variable, or an identifier the type information does not resolve), not
// a function, a builtin or a type.
func MayBeFuncValue(info *types.Info, fun ast.Expr) bool {
	switch info.Uses[rootIdent(fun)].(type) {
	case *types.Func, *types.Builtin, *types.TypeName:
		return false
	}
	return true
}

// rootIdent returns the identifier a called function expression that
// calledName reports as one is (f in f(x) and f[T](x)).
func rootIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.IndexExpr:
		return rootIdent(f.X)
	case *ast.IndexListExpr:
		return rootIdent(f.X)
	}
	return nil
}
