package driver

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// missingDLQFuncs returns the -retrycontract.dlq-funcs entries (from the
// command line or the configuration file) that name a function or method
// absent from a package that was loaded: a typo there would otherwise
// silently hide findings. An entry whose package was not loaded is not
// judged: it may belong to a build this run does not see.
func missingDLQFuncs(analyzers []*analysis.Analyzer, pkgs []*packages.Package) []string {
	funcs := dlqFuncsOf(analyzers)
	if len(funcs) == 0 {
		return nil
	}
	byPath := make(map[string]*types.Package)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types != nil && !p.IllTyped {
			byPath[p.PkgPath] = p.Types
		}
	})
	var missing []string
	for _, f := range funcs {
		pkg := byPath[f.PkgPath]
		if pkg == nil || contract.Declares(pkg, f) {
			continue
		}
		missing = append(missing, fmt.Sprintf("%s (%s): no %s in %s", f, f.Where(), f.Describe(), f.PkgPath))
	}
	return missing
}

// dlqFuncsOf returns the entries of -retrycontract.dlq-funcs.
func dlqFuncsOf(analyzers []*analysis.Analyzer) contract.FuncList {
	for _, a := range analyzers {
		if a.Name != contract.Name {
			continue
		}
		if f := a.Flags.Lookup(contract.FlagDLQFuncs); f != nil {
			if funcs, ok := f.Value.(*contract.FuncList); ok && funcs != nil {
				return *funcs
			}
		}
	}
	return nil
}
