package contract

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"golang.org/x/tools/go/analysis"
)

// carrierTypes returns the names of the package-level types of the files
// that declare the carrier method, sorted.
func carrierTypes(cfg *Config, info *types.Info, files []*ast.File) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				if tn, ok := info.Defs[spec.(*ast.TypeSpec).Name].(*types.TypeName); ok && declaresMethod(tn.Type(), cfg.CarrierMethod) {
					out = append(out, tn.Name())
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// importsFact reports whether a direct import of the package has a
// package fact of f's type: a carrier type (carrierTypesFact) or a DLQ
// subject constant (dlqSubjectsFact) declared there.
func importsFact(pass *analysis.Pass, f analysis.Fact) bool {
	return slices.ContainsFunc(pass.Pkg.Imports(), func(imp *types.Package) bool { return pass.ImportPackageFact(imp, f) })
}

// declaresMethod reports whether a named type declares a method of that
// name (its own methods, or an interface's).
func declaresMethod(t types.Type, method string) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	for i := range n.NumMethods() {
		if n.Method(i).Name() == method {
			return true
		}
	}
	if iface, ok := n.Underlying().(*types.Interface); ok {
		for i := range iface.NumMethods() {
			if iface.Method(i).Name() == method {
				return true
			}
		}
	}
	return false
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
