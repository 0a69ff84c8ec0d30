package contract

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"golang.org/x/tools/go/analysis"
)

// importsFact reports whether a direct import of the package has a
// package fact of f's type: a carrier type (carrierTypesFact) or a DLQ
// subject constant (dlqSubjectsFact) declared there.
func importsFact(pass *analysis.Pass, f analysis.Fact) bool {
	return slices.ContainsFunc(pass.Pkg.Imports(), func(imp *types.Package) bool { return pass.ImportPackageFact(imp, f) })
}

// gateOf decides which inferences can find anything in the package
// (syntax.Gate).
func (m *Model) gateOf(pass *analysis.Pass, decls []*ast.FuncDecl, importsCarrier bool) syntax.Gate {
	names := m.msgs.Names()
	return syntax.NewGate(m.syn, syntax.Names{
		CarrierMethod: m.cfg.CarrierMethod, DLQName: m.cfg.DLQName, DLQSubject: m.cfg.DLQSubject,
		Predicate: m.cfg.TransientPredicate, Ack: names.Ack, Publish: names.Publish,
	}, syntax.Dependencies{
		Producers: len(m.imported.producers.Producers), RetryableVars: len(m.imported.producers.Vars),
		Classifiers: len(m.imported.classifiers), Effects: len(m.imported.effects.Effects),
		DLQWriters: len(m.imported.dlq.Writers), CarrierImported: importsCarrier,
		DLQSubjectImported: func() bool { return importsFact(pass, new(dlqSubjectsFact)) },
	}, len(m.cfg.DLQFuncs) > 0 || slices.ContainsFunc(decls, dlq.HasDirective))
}
