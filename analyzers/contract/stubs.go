package contract

import "go/ast"

// Placeholders for the parts of the model that later work fills in; each
// lives in its own file once implemented.

type dlqState struct{}
type termState struct{}
type transientState struct{}

func (m *Model) inferDLQWriters(decls []*ast.FuncDecl)  {}
func (m *Model) inferMayTerm(decls []*ast.FuncDecl)     {}
func (m *Model) inferClassifiers(decls []*ast.FuncDecl) {}
func (m *Model) exportDLQFacts()                        {}
func (m *Model) exportTermFacts()                       {}
func (m *Model) exportClassifierFacts()                 {}
