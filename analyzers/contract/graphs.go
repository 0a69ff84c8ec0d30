package contract

import (
	"go/ast"

	"golang.org/x/tools/go/cfg"
)

// Control-flow graphs come from the cfgs pass, which builds one per
// function declaration and literal, once, with what it knows of functions
// that never return. Neither the model nor the checks build a CFG of their
// own.

// CFG returns the control-flow graph of a function declaration's or
// literal's body, or nil for a body of another package.
func (m *Model) CFG(body *ast.BlockStmt) *cfg.CFG { return m.graphs.Of(body) }
