package contract

import "go/ast"

// termState is what the model knows about may-Term helpers in the package.
type termState struct{}

// inferMayTerm finds the package's functions that Term a message parameter
// on some path.
func (m *Model) inferMayTerm(decls []*ast.FuncDecl) {}

func (m *Model) exportTermFacts() {}
