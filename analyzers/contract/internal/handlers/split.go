package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Registries split from their runner (CONTRACT.md version 3, "Handlers,
// wider"): a job framework keeps its handlers in entry structs in one
// package and settles their results in another, which imports it:
//
//	package jobs
//	func Register[T Job](reg *Registry, fn func(context.Context, T) error) {
//		h := Handler(func(ctx context.Context, p []byte) error { ...; return fn(ctx, job) })
//		for i := range reg.mw { h = reg.mw[i](kind, h) }
//		reg.workers[kind] = &Worker{Kind: kind, run: h}
//	}
//	func (w *Worker) Run(ctx context.Context, p []byte) error { return w.run(ctx, p) }
//
//	package runner
//	w, ok := r.reg.Lookup(kind)
//	if err := r.invoke(ctx, w, msg); err == nil { msg.Ack() } // invoke returns w.Run(...)
//
// Neither package sees both halves, and facts flow only to importers: the
// registry's package does not know its field is Acked, the runner's does
// not know what is stored there. So each says what it sees, in a
// FieldFact, and the package that imports both (main, which wires the
// registry to the runner) links them: a function that stores its
// parameter in a field that some runner Acks on nil has a handler
// parameter there, with the runner's Ack.
//
// The registry's package records the functions that store a func-typed
// parameter in a func-typed field of one of its struct types (directly,
// or a value carrying it: a literal returning its call's result, a local
// defined so, middleware applied to one, whatever other arguments the
// middleware takes: h = reg.mw[i](kind, h)), and the exported methods
// that return the result of calling such a field of their receiver (the
// entry's Run). The runner's package follows a call of such a method like
// a call of the field (through functions that return its result, like
// invoke), and records where it Acks on nil.
//
// Decided: across packages the handler is the entry's field, not the map
// that holds the entries (within a package the route is the map,
// routes.go): the runner reaches the entry through a lookup method and
// helpers the registry's facts cannot describe. An entry method that
// calls the field and drops its result (a probe) is no way to the field,
// and a runner that logs the method's result, or Naks on nil, Acks
// nothing for it.

// AddFieldFact records the FieldFact of fn, a function of another package.
func (imp *Imported) AddFieldFact(fn *types.Func, f *FieldFact) {
	if imp.fieldStores == nil {
		imp.fieldStores, imp.fieldAcks, imp.FieldReturns = make(map[*types.Func]*FieldFact), make(map[string]fieldAck), make(map[*types.Func]string)
	}
	if f.Stores != "" {
		imp.fieldStores[fn] = f
	}
	if f.Returns != "" {
		imp.FieldReturns[fn] = f.Returns
	}
	if a, ok := imp.fieldAcks[f.Acks]; f.Acks != "" && (!ok || fn.FullName() < a.fn.FullName()) {
		imp.fieldAcks[f.Acks] = fieldAck{fn: fn, line: f.Line, col: f.Col}
	}
}

// LinkFields makes the functions of other packages that store their
// parameters in a field another package Acks on nil handler callers
// (Handlers), with that Ack. Called once all facts are added.
func (imp *Imported) LinkFields() {
	for fn, f := range imp.fieldStores {
		a, ok := imp.fieldAcks[fn.Pkg().Path()+"."+f.Stores]
		if _, known := imp.Handlers[fn]; ok && !known {
			imp.Handlers[fn] = Registration{Params: f.Params, Line: a.line, Col: a.col, AckFn: a.fn}
		}
	}
}

// FieldFacts returns the FieldFacts of the package's functions.
func (m *Result) FieldFacts() map[*types.Func]*FieldFact { return m.fieldFacts }

// indexImportedFields resolves the fields the imported entry methods
// return the result of (FieldReturns), before the handler fields are
// looked for.
func (m *Result) indexImportedFields() {
	m.returnsField = make(map[*types.Func]*types.Var)
	m.fieldKeys = make(map[*types.Var]string)
	for fn, name := range m.imported.FieldReturns {
		typ, field, _ := strings.Cut(name, ".")
		tn, ok := fn.Pkg().Scope().Lookup(typ).(*types.TypeName)
		if !ok {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, fn.Pkg(), field)
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			m.returnsField[fn], m.fieldKeys[v] = v, fn.Pkg().Path()+"."+typ+"."+field
		}
	}
}

// findFieldFacts computes the package's FieldFacts (see above).
func (m *Result) findFieldFacts() {
	m.fieldFacts = make(map[*types.Func]*FieldFact)
	fact := func(fn *types.Func) *FieldFact {
		if m.fieldFacts[fn] == nil {
			m.fieldFacts[fn] = &FieldFact{}
		}
		return m.fieldFacts[fn]
	}
	for _, d := range m.decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil {
			continue
		}
		if f := m.returnedField(d); f != "" {
			fact(fn).Returns = f
		}
		if m.handlerParams[fn] != nil || !hasErrorFuncParam(fn) {
			continue
		}
		for i, p := range messages.ParamVars(m.info, d.Type) {
			if p == nil || !ReturnsError(p.Type()) {
				continue
			}
			if f := m.storedField(d.Body, p); f != "" && (fact(fn).Stores == "" || fact(fn).Stores == f) {
				fact(fn).Stores, fact(fn).Params = f, append(fact(fn).Params, i)
			}
		}
	}
	for field, ack := range m.handlerFieldAcks {
		key := m.fieldKeys[field]
		if key == "" {
			continue
		}
		for _, d := range m.decls {
			if fn, _ := m.info.Defs[d.Name].(*types.Func); fn != nil && d.Body.Pos() <= ack && ack < d.Body.End() {
				decl, at := m.fset.Position(fn.Pos()), m.fset.Position(ack)
				if f := fact(fn); f.Acks == "" || key < f.Acks {
					f.Acks, f.Line, f.Col = key, at.Line-decl.Line, at.Column
				}
			}
		}
	}
	m.pruneFieldFacts()
}

// pruneFieldFacts keeps a field's Stores and Returns only when the
// package has both: a runner of another package reaches the field only
// through a function that returns its result, and a field no parameter is
// stored in holds no handler a registration passes (a hook field set by
// its users, a router's auditors settled where they are kept).
func (m *Result) pruneFieldFacts() {
	stored, returned := make(map[string]bool), make(map[string]bool)
	for _, f := range m.fieldFacts {
		stored[f.Stores], returned[f.Returns] = true, true
	}
	for fn, f := range m.fieldFacts {
		if !returned[f.Stores] {
			f.Stores, f.Params = "", nil
		}
		if !stored[f.Returns] {
			f.Returns = ""
		}
		if f.Stores == "" && f.Returns == "" && f.Acks == "" {
			delete(m.fieldFacts, fn)
		}
	}
}

// returnedField returns the func-typed field (Type.field, Type a struct
// type declared at the package's top level) whose call's result an
// exported function or method returns (return w.run(ctx, p)), or "".
func (m *Result) returnedField(d *ast.FuncDecl) string {
	if !d.Name.IsExported() {
		return ""
	}
	for _, ret := range m.returnsOf(d.Body) {
		if len(ret.Results) == 0 {
			continue
		}
		call, ok := ast.Unparen(ret.Results[len(ret.Results)-1]).(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if s := m.info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && ReturnsError(s.Type()) {
			if named := namedStruct(s.Recv()); named != nil && named.Obj().Parent() == m.pkg.Scope() {
				return named.Obj().Name() + "." + s.Obj().Name()
			}
		}
	}
	return ""
}

// storedField returns the func-typed field (Type.field) of a struct type
// of the package that body stores p in (&Worker{run: h}, w.run = h, h
// carrying p), or "".
func (m *Result) storedField(body *ast.BlockStmt, p *types.Var) string {
	out := ""
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			named := namedStruct(m.info.TypeOf(n))
			if named == nil || named.Obj().Pkg() != m.pkg {
				return true
			}
			st := named.Underlying().(*types.Struct)
			for i, elt := range n.Elts {
				field := i
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					field, elt = slices.IndexFunc(structFields(st), func(f *types.Var) bool { return m.info.Uses[identOf(kv.Key)] == f }), kv.Value
				}
				if field >= 0 && field < st.NumFields() && ReturnsError(st.Field(field).Type()) && m.carries(elt, n.Pos(), p, map[*types.Var]bool{}) {
					out = named.Obj().Name() + "." + st.Field(field).Name()
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || len(n.Lhs) != len(n.Rhs) {
					continue
				}
				if s := m.info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && ReturnsError(s.Type()) && m.carries(n.Rhs[i], n.Pos(), p, map[*types.Var]bool{}) {
					if named := namedStruct(s.Recv()); named != nil && named.Obj().Pkg() == m.pkg {
						out = named.Obj().Name() + "." + s.Obj().Name()
					}
				}
			}
		}
		return out == ""
	})
	return out
}

// carries reports whether e, at pos, is p or a value wrapping it: a
// literal returning p's call's result (isOrWraps), a local one of whose
// definitions reaching pos carries p, or a call returning a function that
// returns an error with such an argument (middleware applied, or a
// conversion). seen stops the trace at a local already followed.
func (m *Result) carries(e ast.Expr, pos token.Pos, p *types.Var, seen map[*types.Var]bool) bool {
	if m.isOrWraps(e, p) {
		return true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || seen[v] || v.Parent() == nil || v.Parent() == m.pkg.Scope() {
			return false
		}
		seen[v] = true
		for _, d := range m.defs().Reaching(v, pos) {
			if d.RHS != nil && d.Index < 0 && m.carries(d.RHS, d.Pos, p, seen) {
				return true
			}
		}
	case *ast.CallExpr:
		if t := m.info.TypeOf(x); !gotypes.IsValid(t) || !ReturnsError(t) {
			return false
		}
		return slices.ContainsFunc(x.Args, func(a ast.Expr) bool { return m.carries(a, pos, p, seen) })
	}
	return false
}

// namedStruct returns the named struct type t is or points to, or nil.
func namedStruct(t types.Type) *types.Named {
	if !gotypes.IsValid(t) {
		return nil
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil
	}
	return named
}

func structFields(st *types.Struct) []*types.Var {
	out := make([]*types.Var, st.NumFields())
	for i := range out {
		out[i] = st.Field(i)
	}
	return out
}
