package syntax

import (
	"go/ast"
	"go/token"
)

// Per kilobyte of source, a little more than Go code holds of each kind
// of node the walk collects (nats-server, net/http and this repository's
// runtime hold 10 to 15 calls, 5 to 8 definitions and 5 to 7 string
// literals per kilobyte; over nats-server and all its dependencies, 90%
// of the source holds at most 16 sites, 9 flow nodes and 5.5 strings per
// kilobyte). The walk's slices start at that capacity: grown by appends,
// they allocated twice their final size, most of the model's allocations
// on a large package, and the collections they caused.
const (
	sitesPerKB   = 20
	flowPerKB    = 10
	stringsPerKB = 6
)

// NewIndex indexes files, leaving out the bodies of the test functions
// skipped (TestFuncs).
func NewIndex(files []*ast.File, skipped map[*ast.FuncDecl]bool) *Index {
	kb, funcs := 0, 0
	for _, f := range files {
		kb += int(f.FileEnd-f.FileStart)/1024 + 1
		funcs += len(f.Decls) // at most the declared functions' bodies; literals add some
	}
	s := &Index{
		Sites:   make([]Site, 0, kb*sitesPerKB),
		Flow:    make([]FlowNode, 0, kb*flowPerKB),
		Strings: make([]*ast.BasicLit, 0, kb*stringsPerKB),
		Returns: make(map[*ast.BlockStmt][]*ast.ReturnStmt, funcs),
		DeclOf:  make(map[*ast.BlockStmt]*ast.FuncDecl, funcs),
		Names:   make(map[string]bool),
	}
	for _, f := range files {
		w := walker{s: s, skipped: skipped, file: f, container: f}
		w.file1(f)
	}
	return s
}

// mayNameFunc reports whether a key-value pair can store a function in a
// field: Key: fn, Key: s.method, Key: func(...) {...}, Key: generic[T].
// Only those can make a handler of a field (handlerInField).
func mayNameFunc(kv *ast.KeyValueExpr) bool {
	if _, ok := kv.Key.(*ast.Ident); !ok {
		return false
	}
	switch ast.Unparen(kv.Value).(type) {
	case *ast.FuncLit, *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// mayStore reports whether an expression statement is a method call with
// arguments, the only kind the flow index records stores for
// (v.Header.Set("k", e)).
func mayStore(es *ast.ExprStmt) bool {
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	_, ok = ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok
}

// walker is NewIndex's walk over one file. It visits the nodes ast.Walk
// visits, in the same order (TestWalkerAgreesWithInspect), but calls no
// closure per node and keeps no stack of nodes: the innermost scoping
// node and the function bodies are all the walk needs of the path. On a
// large package the walk was a third of the model's time, most of it in
// ast.Inspect's calls.
type walker struct {
	s         *Index
	skipped   map[*ast.FuncDecl]bool
	file      *ast.File
	container ast.Node         // innermost block, clause or statement scope (or the file)
	bodies    []*ast.BlockStmt // enclosing function bodies, innermost last
	decl      *ast.FuncDecl    // enclosing declaration
}

func (w *walker) file1(f *ast.File) {
	w.ident(f.Name)
	for _, d := range f.Decls {
		w.node(d)
	}
}

func (w *walker) at(n ast.Node) Site {
	st := Site{Node: n}
	if len(w.bodies) > 0 {
		st.Body = w.bodies[len(w.bodies)-1]
	}
	return st
}

func (w *walker) enter(body *ast.BlockStmt) {
	w.bodies = append(w.bodies, body)
	if body != nil {
		w.s.Returns[body] = nil // a body without returns has none
		if w.decl != nil {
			w.s.DeclOf[body] = w.decl
		}
	}
}

func (w *walker) ident(id *ast.Ident) {
	if id != nil && !w.s.Names[id.Name] {
		w.s.Names[id.Name] = true
	}
}

func (w *walker) exprs(list []ast.Expr) {
	for _, e := range list {
		w.node(e)
	}
}

func (w *walker) stmts(list []ast.Stmt) {
	for _, st := range list {
		w.node(st)
	}
}

func (w *walker) fields(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		for _, id := range f.Names {
			w.ident(id)
		}
		w.node(f.Type)
		if f.Tag != nil {
			w.node(f.Tag)
		}
	}
}

// scope walks the children of a scoping node with it as the container.
func (w *walker) scope(n ast.Node, children func()) {
	outer := w.container
	w.container = n
	children()
	w.container = outer
}

// node walks n and what ast.Walk walks under it (comments aside: the
// index holds nothing of them): expressions here, statements in stmt,
// declarations and specs in decl.
func (w *walker) node(n ast.Node) {
	switch n := n.(type) {
	case nil:
	case *ast.Ident:
		w.ident(n)
	case *ast.BasicLit:
		if n != nil && n.Kind == token.STRING {
			w.s.Strings = append(w.s.Strings, n)
		}
	case *ast.BadExpr:
	case *ast.Ellipsis:
		w.node(n.Elt)
	case *ast.FuncLit:
		w.s.Lits = append(w.s.Lits, n)
		w.enter(n.Body)
		w.node(n.Type)
		w.node(n.Body)
		w.bodies = w.bodies[:len(w.bodies)-1]
	case *ast.CompositeLit:
		w.node(n.Type)
		w.exprs(n.Elts)
	case *ast.ParenExpr:
		w.node(n.X)
	case *ast.SelectorExpr:
		w.node(n.X)
		w.ident(n.Sel)
	case *ast.IndexExpr:
		if _, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok {
			w.s.SelectorIndexes = append(w.s.SelectorIndexes, n)
		}
		w.node(n.X)
		w.node(n.Index)
	case *ast.IndexListExpr:
		w.node(n.X)
		w.exprs(n.Indices)
	case *ast.SliceExpr:
		w.node(n.X)
		w.node(n.Low)
		w.node(n.High)
		w.node(n.Max)
	case *ast.TypeAssertExpr:
		w.node(n.X)
		w.node(n.Type)
	case *ast.CallExpr:
		w.s.Sites = append(w.s.Sites, w.at(n))
		w.node(n.Fun)
		w.exprs(n.Args)
	case *ast.StarExpr:
		w.node(n.X)
	case *ast.UnaryExpr:
		w.node(n.X)
	case *ast.BinaryExpr:
		w.node(n.X)
		w.node(n.Y)
	case *ast.KeyValueExpr:
		if mayNameFunc(n) {
			w.s.Sites = append(w.s.Sites, w.at(n))
		}
		w.node(n.Key)
		w.node(n.Value)
	case *ast.ArrayType:
		w.node(n.Len)
		w.node(n.Elt)
	case *ast.StructType:
		w.fields(n.Fields)
	case *ast.FuncType:
		w.s.FuncTypes = append(w.s.FuncTypes, n)
		w.fields(n.TypeParams)
		w.fields(n.Params)
		w.fields(n.Results)
	case *ast.InterfaceType:
		w.fields(n.Methods)
	case *ast.MapType:
		w.node(n.Key)
		w.node(n.Value)
	case *ast.ChanType:
		w.node(n.Value)
	default:
		w.stmt(n)
	}
}

// stmt walks a statement, or hands a declaration to decl.
func (w *walker) stmt(n ast.Node) {
	switch n := n.(type) {
	case *ast.BadStmt, *ast.EmptyStmt:
	case *ast.DeclStmt:
		w.node(n.Decl)
	case *ast.LabeledStmt:
		w.ident(n.Label)
		w.node(n.Stmt)
	case *ast.ExprStmt:
		if mayStore(n) {
			w.s.Flow = append(w.s.Flow, FlowNode{n, nil})
		}
		w.node(n.X)
	case *ast.SendStmt:
		w.node(n.Chan)
		w.node(n.Value)
	case *ast.IncDecStmt:
		w.node(n.X)
	case *ast.AssignStmt:
		w.s.Flow = append(w.s.Flow, FlowNode{n, w.container})
		w.exprs(n.Lhs)
		w.exprs(n.Rhs)
	case *ast.GoStmt:
		w.node(n.Call)
	case *ast.DeferStmt:
		if n.Call != nil && len(w.bodies) > 0 {
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				if w.s.Deferred == nil {
					w.s.Deferred = make(map[*ast.BlockStmt]*ast.BlockStmt)
				}
				w.s.Deferred[lit.Body] = w.bodies[len(w.bodies)-1]
			}
		}
		w.node(n.Call)
	case *ast.ReturnStmt:
		st := w.at(n)
		w.s.Sites = append(w.s.Sites, st)
		if st.Body != nil {
			w.s.Returns[st.Body] = append(w.s.Returns[st.Body], n)
		}
		w.exprs(n.Results)
	case *ast.BranchStmt:
		w.ident(n.Label)
	default:
		w.scoped(n)
	}
}

// scoped walks a statement that scopes what it holds (the container of
// the flow nodes under it), or hands a declaration to declOrSpec.
func (w *walker) scoped(n ast.Node) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		if n != nil {
			w.scope(n, func() { w.stmts(n.List) })
		}
	case *ast.IfStmt:
		w.scope(n, func() {
			w.node(n.Init)
			w.node(n.Cond)
			w.node(n.Body)
			w.node(n.Else)
		})
	case *ast.CaseClause:
		w.scope(n, func() {
			w.exprs(n.List)
			w.stmts(n.Body)
		})
	case *ast.SwitchStmt:
		w.scope(n, func() {
			w.node(n.Init)
			w.node(n.Tag)
			w.node(n.Body)
		})
	case *ast.TypeSwitchStmt:
		w.scope(n, func() {
			w.node(n.Init)
			w.node(n.Assign)
			w.node(n.Body)
		})
	case *ast.CommClause:
		w.scope(n, func() {
			w.node(n.Comm)
			w.stmts(n.Body)
		})
	case *ast.SelectStmt:
		w.scope(n, func() { w.node(n.Body) })
	case *ast.ForStmt:
		w.scope(n, func() {
			w.node(n.Init)
			w.node(n.Cond)
			w.node(n.Post)
			w.node(n.Body)
		})
	case *ast.RangeStmt:
		w.s.Flow = append(w.s.Flow, FlowNode{n, w.container})
		w.scope(n, func() {
			w.node(n.Key)
			w.node(n.Value)
			w.node(n.X)
			w.node(n.Body)
		})
	default:
		w.declOrSpec(n)
	}
}

// declOrSpec walks a declaration or a spec.
func (w *walker) declOrSpec(n ast.Node) {
	switch n := n.(type) {
	case *ast.BadDecl:
	case *ast.ImportSpec:
		w.ident(n.Name)
		w.node(n.Path)
	case *ast.ValueSpec:
		w.s.Flow = append(w.s.Flow, FlowNode{n, w.container})
		for _, id := range n.Names {
			w.ident(id)
		}
		w.node(n.Type)
		w.exprs(n.Values)
	case *ast.TypeSpec:
		w.ident(n.Name)
		w.fields(n.TypeParams)
		w.node(n.Type)
	case *ast.GenDecl:
		for _, sp := range n.Specs {
			w.node(sp)
		}
	case *ast.FuncDecl:
		if w.skipped[n] {
			return // out of scope, whole
		}
		w.decl = n
		w.enter(n.Body)
		w.fields(n.Recv)
		w.ident(n.Name)
		w.node(n.Type)
		if n.Body != nil {
			w.node(n.Body)
		}
		w.bodies, w.decl = w.bodies[:len(w.bodies)-1], nil
	}
}
