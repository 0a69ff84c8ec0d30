// Package syntax is the contract model's first stage: one walk over a
// package's files collects what every later stage reads (calls, returns,
// function literals, definitions, identifiers, string literals), and
// which functions are tests, out of scope. It reads the syntax and the
// type information only.
package syntax

import (
	"cmp"
	"go/ast"
	"go/token"
	"slices"
)

// Index is what one walk over a package's files collects for the model.
// The vocabulary, the flow index, the handler search and every per-call
// inference used to walk the files each on its own; on a large package the
// walks were most of the model's cost.
type Index struct {
	// Sites are the calls, key-value pairs and return statements of the
	// package in source order, each with the body of the function
	// (declaration or literal) that holds it, nil at package level.
	Sites []Site
	// Returns are the return statements of each function body, not those
	// of the function literals inside it.
	Returns map[*ast.BlockStmt][]*ast.ReturnStmt
	// DeclOf are the function declarations holding each function body
	// (their own, and those of the literals inside them).
	DeclOf map[*ast.BlockStmt]*ast.FuncDecl
	// Lits are the function literals of the package, in source order.
	Lits []*ast.FuncLit
	// Deferred maps the body of each literal a defer statement calls
	// (defer func() {...}()) to the function body holding the defer.
	Deferred map[*ast.BlockStmt]*ast.BlockStmt
	// Names are the package's distinct identifiers.
	Names map[string]bool
	// Flow are the statements that define variables or store into them,
	// for the flow index, each with its innermost scoping node.
	Flow []FlowNode
	// Strings are the package's string literals, in source order.
	Strings []*ast.BasicLit
	// FuncTypes are the package's function types (of declarations,
	// literals and type expressions), in source order.
	FuncTypes []*ast.FuncType
	// SelectorIndexes are the index expressions of a selector (x.f[k]),
	// the only ones that can look up a route kept in a field.
	SelectorIndexes []*ast.IndexExpr
}

// Site is a call, a key-value pair or a return statement, and the
// innermost function body holding it.
type Site struct {
	Node ast.Node // *ast.CallExpr, *ast.KeyValueExpr or *ast.ReturnStmt
	Body *ast.BlockStmt
}

// FlowNode is an assignment, expression statement, value spec or range
// statement, and the innermost block, clause or statement scope holding it.
type FlowNode struct {
	Node      ast.Node
	Container ast.Node
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

// NewIndex indexes files, leaving out the bodies of the test functions
// skipped (TestFuncs).
func NewIndex(files []*ast.File, skipped map[*ast.FuncDecl]bool) *Index {
	kb := 0
	for _, f := range files {
		kb += int(f.FileEnd-f.FileStart)/1024 + 1
	}
	s := &Index{
		Sites:   make([]Site, 0, kb*sitesPerKB),
		Flow:    make([]FlowNode, 0, kb*flowPerKB),
		Strings: make([]*ast.BasicLit, 0, kb*stringsPerKB),
		Returns: make(map[*ast.BlockStmt][]*ast.ReturnStmt),
		DeclOf:  make(map[*ast.BlockStmt]*ast.FuncDecl),
		Names:   make(map[string]bool),
	}
	for _, f := range files {
		s.walk(f, skipped)
	}
	return s
}

// walk adds one file. It keeps the stack of enclosing nodes and, apart,
// the stack of enclosing function bodies.
func (s *Index) walk(f *ast.File, skipped map[*ast.FuncDecl]bool) {
	var stack []ast.Node
	var bodies []*ast.BlockStmt
	var decl *ast.FuncDecl
	at := func(n ast.Node) Site {
		s := Site{Node: n}
		if len(bodies) > 0 {
			s.Body = bodies[len(bodies)-1]
		}
		return s
	}
	enter := func(body *ast.BlockStmt) {
		bodies = append(bodies, body)
		if body != nil {
			s.Returns[body] = nil // a body without returns has none
			if decl != nil {
				s.DeclOf[body] = decl
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
			s.Names[n.Name] = true
			return false // no children, and nothing to pop
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				s.Strings = append(s.Strings, n)
			}
			return false
		case *ast.FuncDecl:
			if skipped[n] {
				return false // out of scope, whole
			}
			decl = n
			enter(n.Body)
		case *ast.FuncLit:
			s.Lits = append(s.Lits, n)
			enter(n.Body)
		case *ast.FuncType:
			s.FuncTypes = append(s.FuncTypes, n)
		case *ast.IndexExpr:
			if _, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok {
				s.SelectorIndexes = append(s.SelectorIndexes, n)
			}
		case *ast.CallExpr:
			s.Sites = append(s.Sites, at(n))
		case *ast.KeyValueExpr:
			if mayNameFunc(n) {
				s.Sites = append(s.Sites, at(n))
			}
		case *ast.ReturnStmt:
			st := at(n)
			s.Sites = append(s.Sites, st)
			if st.Body != nil {
				s.Returns[st.Body] = append(s.Returns[st.Body], n)
			}
		case *ast.ExprStmt:
			if mayStore(n) {
				s.Flow = append(s.Flow, FlowNode{n, nil})
			}
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok && len(bodies) > 0 {
				if s.Deferred == nil {
					s.Deferred = make(map[*ast.BlockStmt]*ast.BlockStmt)
				}
				s.Deferred[lit.Body] = bodies[len(bodies)-1]
			}
		case *ast.AssignStmt, *ast.ValueSpec, *ast.RangeStmt:
			s.Flow = append(s.Flow, FlowNode{n, nearestContainer(stack, f)})
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

// Trim drops, once the model is frozen, what only its inferences read.
// The checks read the returns of bodies, where something may be found.
func (s *Index) Trim(keepReturns bool) {
	*s = Index{Returns: s.Returns}
	if !keepReturns {
		s.Returns = nil
	}
}

// CallsByBody groups the calls of the package by the function body that
// evaluates them, each in InspectCalls order: a body's own calls, and
// those of the literals it calls on the spot (func() { ... }(), go and
// defer too), spliced in where they stand.
func (s *Index) CallsByBody() map[*ast.BlockStmt][]*ast.CallExpr {
	own := make(map[*ast.BlockStmt][]*ast.CallExpr)
	for _, st := range s.Sites {
		if call, ok := st.Node.(*ast.CallExpr); ok && st.Body != nil {
			own[st.Body] = append(own[st.Body], call)
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

// nearestContainer returns the innermost node of stack that scopes the
// statements under it.
func nearestContainer(stack []ast.Node, file *ast.File) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause,
			*ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt,
			*ast.TypeSwitchStmt, *ast.SelectStmt:
			return stack[i]
		}
	}
	return file
}
