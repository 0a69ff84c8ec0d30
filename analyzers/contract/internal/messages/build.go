package messages

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Build indexes the ack calls of the package (the calls syn lists), once:
// nearly every inference asks about every call, and the table of the few
// ack calls answers without touching the call's syntax again. It then
// finds the messages of files that nothing redelivers, outside testFuncs
// (out of scope, syntax.TestFuncs).
func Build(info *types.Info, pkg *types.Package, profiles []*profile.Profile, syn *syntax.Index, defsOf func() *defs.Index, files []*ast.File, testFuncs map[*ast.FuncDecl]bool) *Table {
	m := &Table{info: info, pkg: pkg, profiles: profiles, names: NewLibraryNames(profiles), defs: defsOf,
		acks: make(map[*ast.CallExpr]AckCall)}
	if syn == nil || !m.names.NamedIn(syn.Names) {
		return m // no ack method is named in the package
	}
	m.ackIfaces = m.ackInterfaces(syn.FuncTypes)
	for _, s := range syn.Sites {
		if call, ok := s.Node.(*ast.CallExpr); ok {
			if a, ok := m.asAckCall(call); ok {
				m.acks[call] = a
			}
		}
	}
	if r := newRedelivery(m); r != nil && r.seeded(syn.Sites) {
		m.unredelivered = r.findUnredelivered(files, testFuncs, flowNodes(syn, redeliveryCallNames(profiles)))
	}
	return m
}

// flowNodes returns, in source order, the nodes a message can flow
// through (findUnredelivered): the assignments, value specs and ranges of
// syn, and its calls named in calls (the others hand nothing on and read
// nothing; on a large package they were most of the list). syn leaves out
// the test functions, as findUnredelivered does.
func flowNodes(syn *syntax.Index, calls map[string]bool) []ast.Node {
	out := make([]ast.Node, 0, len(syn.Flow)) // about as many: fewer stores, a few calls
	sites := syn.Sites
	for _, f := range syn.Flow {
		if _, ok := f.Node.(*ast.ExprStmt); ok {
			continue // a store, nothing read
		}
		// A statement comes before the calls it holds: a call starting
		// where the statement does is inside it (f().x = y).
		for len(sites) > 0 && sites[0].Node.Pos() < f.Node.Pos() {
			out = appendNamedCall(out, sites[0].Node, calls)
			sites = sites[1:]
		}
		out = append(out, f.Node)
	}
	for _, s := range sites {
		out = appendNamedCall(out, s.Node, calls)
	}
	return out
}

// appendNamedCall appends n when it is a call named in calls.
func appendNamedCall(out []ast.Node, n ast.Node, calls map[string]bool) []ast.Node {
	if call, ok := n.(*ast.CallExpr); ok {
		if name, _ := goast.CalledName(call.Fun); calls[name] {
			out = append(out, call)
		}
	}
	return out
}
