package contract

import "go/ast"

// dlqState is what the model knows about DLQ writes in the package.
type dlqState struct{}

// inferDLQWriters finds the package's functions that make a DLQ write on
// some path.
func (m *Model) inferDLQWriters(decls []*ast.FuncDecl) {}

func (m *Model) exportDLQFacts() {}
