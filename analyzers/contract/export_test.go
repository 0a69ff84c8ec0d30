package contract

import (
	"go/ast"
	"reflect"
)

// SetSolveHook sets the hook called with each body whose transient paths
// are solved for the checks; nil removes it.
func SetSolveHook(f func(body *ast.BlockStmt)) { solveHook = f }

// DLQFilterMisses returns the calls of the model's package that are DLQ
// writes although mayNameDLQWrite, the test by name before the type
// information is read, would skip them (there must be none), and how many
// calls it looked at.
func DLQFilterMisses(m *Model) (misses []*ast.CallExpr, calls int) {
	for _, f := range m.files {
		InspectCalls(f, func(call *ast.CallExpr) bool {
			calls++
			if !m.mayNameDLQWrite(call) && m.mayWriteDLQ && m.isDLQWriteCall(call) {
				misses = append(misses, call)
			}
			return true
		})
	}
	return misses, calls
}

// PkgPath returns the path of the model's package.
func PkgPath(m *Model) string { return m.pkg.Path() }

// FlowIndexPartsAgree reports whether the flow index of the model's files,
// built in 2 and in 3 parts, is the one built in a single pass, and how
// many definitions it holds.
func FlowIndexPartsAgree(m *Model) (agree bool, defs int) {
	nodes := newSyntax(m.files).flow
	whole := indexFlowParts(m.info, nodes, 1)
	for _, parts := range []int{2, 3} {
		idx := indexFlowParts(m.info, nodes, parts)
		if !reflect.DeepEqual(idx.defs, whole.defs) || !reflect.DeepEqual(idx.stores, whole.stores) {
			return false, 0
		}
	}
	for _, list := range whole.defs {
		defs += len(list)
	}
	return true, defs
}
