package contract

import (
	"cmp"
	"go/ast"
	"go/token"
	"slices"
)

// syntax is what one walk over a package's files collects for the model.
// The vocabulary, the flow index, the handler search and every per-call
// inference used to walk the files each on its own; on a large package the
// walks were most of the model's cost.
type syntax struct {
	// sites are the calls, key-value pairs and return statements of the
	// package in source order, each with the body of the function
	// (declaration or literal) that holds it, nil at package level.
	sites []site
	// returns are the return statements of each function body, not those
	// of the function literals inside it.
	returns map[*ast.BlockStmt][]*ast.ReturnStmt
	// decls are the function declarations holding each function body
	// (their own, and those of the literals inside them).
	decls map[*ast.BlockStmt]*ast.FuncDecl
	// lits are the function literals of the package, in source order.
	lits []*ast.FuncLit
	// deferred maps the body of each literal a defer statement calls
	// (defer func() {...}()) to the function body holding the defer.
	deferred map[*ast.BlockStmt]*ast.BlockStmt
	// names are the package's distinct identifiers.
	names map[string]bool
	// flow are the statements that define variables or store into them,
	// for the flow index, each with its innermost scoping node.
	flow []flowNode
	// strings are the package's string literals, in source order.
	strings []*ast.BasicLit
}

// site is a call, a key-value pair or a return statement, and the
// innermost function body holding it.
type site struct {
	node ast.Node // *ast.CallExpr, *ast.KeyValueExpr or *ast.ReturnStmt
	body *ast.BlockStmt
}

// flowNode is an assignment, expression statement, value spec or range
// statement, and the innermost block, clause or statement scope holding it.
type flowNode struct {
	node      ast.Node
	container ast.Node
}

// Per kilobyte of source, a little more than Go code holds of each kind
// of node the walk collects (nats-server, net/http and this repository's
// runtime hold 10 to 15 calls, 5 to 8 definitions and 5 to 7 string
// literals per kilobyte). The walk's slices start at that capacity: grown
// by appends, they allocated twice their final size, most of the model's
// allocations on a large package, and the collections they caused.
const (
	sitesPerKB   = 20
	flowPerKB    = 10
	stringsPerKB = 8
)

// newSyntax indexes files, leaving out the bodies of the test functions
// skipped (testfuncs.go).
func newSyntax(files []*ast.File, skipped map[*ast.FuncDecl]bool) *syntax {
	kb := 0
	for _, f := range files {
		kb += int(f.FileEnd-f.FileStart)/1024 + 1
	}
	s := &syntax{
		sites:   make([]site, 0, kb*sitesPerKB),
		flow:    make([]flowNode, 0, kb*flowPerKB),
		strings: make([]*ast.BasicLit, 0, kb*stringsPerKB),
		returns: make(map[*ast.BlockStmt][]*ast.ReturnStmt),
		decls:   make(map[*ast.BlockStmt]*ast.FuncDecl),
		names:   make(map[string]bool),
	}
	for _, f := range files {
		s.walk(f, skipped)
	}
	return s
}

// walk adds one file. It keeps the stack of enclosing nodes and, apart,
// the stack of enclosing function bodies.
func (s *syntax) walk(f *ast.File, skipped map[*ast.FuncDecl]bool) {
	var stack []ast.Node
	var bodies []*ast.BlockStmt
	var decl *ast.FuncDecl
	at := func(n ast.Node) site {
		s := site{node: n}
		if len(bodies) > 0 {
			s.body = bodies[len(bodies)-1]
		}
		return s
	}
	enter := func(body *ast.BlockStmt) {
		bodies = append(bodies, body)
		if body != nil {
			s.returns[body] = nil // a body without returns has none
			if decl != nil {
				s.decls[body] = decl
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			switch stack[len(stack)-1].(type) {
			case *ast.FuncDecl:
				bodies, decl = bodies[:len(bodies)-1], nil
			case *ast.FuncLit:
				bodies = bodies[:len(bodies)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.Ident:
			s.names[n.Name] = true
			return false // no children, and nothing to pop
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				s.strings = append(s.strings, n)
			}
			return false
		case *ast.FuncDecl:
			if skipped[n] {
				return false // out of scope, whole
			}
			decl = n
			enter(n.Body)
		case *ast.FuncLit:
			s.lits = append(s.lits, n)
			enter(n.Body)
		case *ast.CallExpr:
			s.sites = append(s.sites, at(n))
		case *ast.KeyValueExpr:
			if mayNameFunc(n) {
				s.sites = append(s.sites, at(n))
			}
		case *ast.ReturnStmt:
			st := at(n)
			s.sites = append(s.sites, st)
			if st.body != nil {
				s.returns[st.body] = append(s.returns[st.body], n)
			}
		case *ast.ExprStmt:
			if mayStore(n) {
				s.flow = append(s.flow, flowNode{n, nil})
			}
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok && len(bodies) > 0 {
				if s.deferred == nil {
					s.deferred = make(map[*ast.BlockStmt]*ast.BlockStmt)
				}
				s.deferred[lit.Body] = bodies[len(bodies)-1]
			}
		case *ast.AssignStmt, *ast.ValueSpec, *ast.RangeStmt:
			s.flow = append(s.flow, flowNode{n, nearestContainer(stack, f)})
		}
		stack = append(stack, n)
		return true
	})
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

// eachCall calls f for every call of the package that a function body
// (declaration or literal) evaluates, with that body, in source order.
func (m *Model) eachCall(f func(call *ast.CallExpr, body *ast.BlockStmt)) {
	for _, s := range m.syntax.sites {
		if call, ok := s.node.(*ast.CallExpr); ok && s.body != nil {
			f(call, s.body)
		}
	}
}

// returnsOf returns the return statements of a function body, not those
// of the function literals inside it.
func (m *Model) returnsOf(body *ast.BlockStmt) []*ast.ReturnStmt {
	if rets, ok := m.syntax.returns[body]; ok {
		return rets
	}
	return Returns(body)
}

// trim drops, once the model is frozen, what only its inferences read.
// The checks read the returns of bodies, where something may be found.
func (s *syntax) trim(keepReturns bool) {
	*s = syntax{returns: s.returns}
	if !keepReturns {
		s.returns = nil
	}
}

// calledName returns the name a call's function expression ends in (f in
// f(x), pkg.f(x), v.f(x), f[T](x)), with ident set when the expression is
// a bare identifier (a function, or a variable holding a func value), or
// "" when it is something else (a function literal, a call's result).
// The model's per-call inferences test the name against the names that
// can matter before looking the callee up in the type information: on a
// large package those lookups, not the tests, are most of their cost.
func calledName(fun ast.Expr) (name string, ident bool) {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f.Name, true
	case *ast.SelectorExpr:
		return f.Sel.Name, false
	case *ast.IndexExpr:
		return calledName(f.X)
	case *ast.IndexListExpr:
		return calledName(f.X)
	}
	return "", false
}

// callsByBody groups the calls of the package by the function body that
// evaluates them, each in InspectCalls order: a body's own calls, and
// those of the literals it calls on the spot (func() { ... }(), go and
// defer too), spliced in where they stand.
func (s *syntax) callsByBody() map[*ast.BlockStmt][]*ast.CallExpr {
	own := make(map[*ast.BlockStmt][]*ast.CallExpr)
	for _, st := range s.sites {
		if call, ok := st.node.(*ast.CallExpr); ok && st.body != nil {
			own[st.body] = append(own[st.body], call)
		}
	}
	out := make(map[*ast.BlockStmt][]*ast.CallExpr, len(own))
	var expand func(body *ast.BlockStmt) []*ast.CallExpr
	expand = func(body *ast.BlockStmt) []*ast.CallExpr {
		if calls, ok := out[body]; ok {
			return calls
		}
		calls := own[body]
		spliced := false
		for _, call := range own[body] {
			if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
				if !spliced {
					calls, spliced = slices.Clone(calls), true
				}
				calls = append(calls, expand(lit.Body)...)
			}
		}
		if spliced {
			// Each list is in source (pre-)order, and a literal's calls lie
			// strictly inside it: ordering by position merges them.
			slices.SortStableFunc(calls, func(a, b *ast.CallExpr) int { return cmp.Compare(a.Pos(), b.Pos()) })
		}
		out[body] = calls
		return calls
	}
	for body := range own {
		expand(body)
	}
	return out
}
