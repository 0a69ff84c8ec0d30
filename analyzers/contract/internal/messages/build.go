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
	funcTypes, flow := scanInScope(files, testFuncs, redeliveryCallNames(profiles))
	m.ackIfaces = m.ackInterfaces(funcTypes)
	for _, s := range syn.Sites {
		if call, ok := s.Node.(*ast.CallExpr); ok {
			if a, ok := m.asAckCall(call); ok {
				m.acks[call] = a
			}
		}
	}
	m.unredelivered = m.findUnredelivered(files, testFuncs, flow)
	return m
}

// scanInScope walks the declarations of files outside testFuncs (out of
// scope, syntax.TestFuncs) once, for the two scans that need more than
// the syntax index holds: the function types (ackInterfaces) and the
// nodes a message can flow through (findUnredelivered): assignments,
// value specs, ranges, and the calls named in calls (the others hand
// nothing on and read nothing; on a large package they were most of the
// list).
func scanInScope(files []*ast.File, testFuncs map[*ast.FuncDecl]bool, calls map[string]bool) (funcTypes []*ast.FuncType, flow []ast.Node) {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && testFuncs[fd] {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncType:
					funcTypes = append(funcTypes, n)
				case *ast.CallExpr:
					if name, _ := goast.CalledName(n.Fun); calls[name] {
						flow = append(flow, n)
					}
				case *ast.AssignStmt, *ast.ValueSpec, *ast.RangeStmt:
					flow = append(flow, n)
				}
				return true
			})
		}
	}
	return funcTypes, flow
}
