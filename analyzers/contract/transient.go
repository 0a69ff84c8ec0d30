package contract

import "go/ast"

// transientState is what the model knows about classifiers in the package.
type transientState struct{}

// inferClassifiers finds the package's functions that classify an error
// as transient: (time.Duration, bool) delay lookups and bool predicates.
func (m *Model) inferClassifiers(decls []*ast.FuncDecl) {}

func (m *Model) exportClassifierFacts() {}
