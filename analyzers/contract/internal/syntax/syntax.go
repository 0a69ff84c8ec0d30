// Package syntax is the contract model's first stage: one walk over a
// package's files collects what every later stage reads (calls, returns,
// function literals, definitions, identifiers, string literals), and
// which functions are tests, out of scope. It reads the syntax and the
// type information only.
package syntax

import (
	"cmp"
	"go/ast"
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
