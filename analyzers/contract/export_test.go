package contract

import "go/ast"

// SetSolveHook sets the hook called with each body whose transient paths
// are solved for the checks; nil removes it.
func SetSolveHook(f func(body *ast.BlockStmt)) { solveHook = f }
