package messages

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
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
	m.ackIfaces = m.ackInterfaces(files, testFuncs)
	for _, s := range syn.Sites {
		if call, ok := s.Node.(*ast.CallExpr); ok {
			if a, ok := m.asAckCall(call); ok {
				m.acks[call] = a
			}
		}
	}
	m.unredelivered = m.findUnredelivered(files, testFuncs)
	return m
}
