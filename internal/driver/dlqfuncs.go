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
// judged: it may belong to a build this run does not see. When every
// dlq-funcs entry exists, it returns the missing decode-funcs entries, with
// that option's name.
func missingDLQFuncs(analyzers []*analysis.Analyzer, pkgs []*packages.Package) (missing []string, option string) {
	for _, option := range []string{contract.FlagDLQFuncs, contract.FlagDecodeFuncs} {
		if missing := missingFuncs(funcsOf(analyzers, option), pkgs); len(missing) > 0 {
			return missing, option
		}
	}
	return nil, ""
}

// missingFuncs returns the entries of funcs that name a function or
// method absent from a loaded package.
func missingFuncs(funcs contract.FuncList, pkgs []*packages.Package) []string {
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

// funcsOf returns the entries of -retrycontract.<option>, a list of
// functions (dlq-funcs, decode-funcs).
func funcsOf(analyzers []*analysis.Analyzer, option string) contract.FuncList {
	for _, a := range analyzers {
		if a.Name != contract.Name {
			continue
		}
		if f := a.Flags.Lookup(option); f != nil {
			if funcs, ok := f.Value.(interface{ Funcs() contract.FuncList }); ok {
				return funcs.Funcs()
			}
		}
	}
	return nil
}

// hasMissingFuncs reports whether a dlq-funcs or decode-funcs entry names
// what does not exist.
func hasMissingFuncs(analyzers []*analysis.Analyzer, pkgs []*packages.Package) bool {
	missing, _ := missingDLQFuncs(analyzers, pkgs)
	return len(missing) > 0
}
