package contract

import (
	"go/ast"

	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// DLQFilterMisses returns the calls of the model's package that are DLQ
// writes although mayNameDLQWrite, the test by name before the type
// information is read, would skip them (there must be none), and how many
// calls it looked at.
func DLQFilterMisses(m *Model) (misses []*ast.CallExpr, calls int) {
	for _, f := range m.files {
		goast.InspectCalls(f, func(call *ast.CallExpr) bool {
			calls++
			if !m.dlq.MayNameDLQWrite(call) && m.gate.MayWriteDLQ && m.dlq.IsDLQWriteCall(call) {
				misses = append(misses, call)
			}
			return true
		})
	}
	return misses, calls
}

// SolveBody solves the transient paths of any body of the model's
// package, solved by the model or not: the probe test asks about every
// body, the checks only about those the model solved.
func SolveBody(m *Model, body *ast.BlockStmt) *ErrorPaths {
	ep, _ := m.tr.Solve(body)
	return ep
}
