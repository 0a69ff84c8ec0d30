// Package suite lists retrylint's checks. The command line, the go vet
// tool, the golangci-lint plugin and the gopls build all take their
// analyzers from here, so every driver runs the same set.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// Analyzers returns the checks built on model, the contract analyzer whose
// configuration the run uses.
func Analyzers(model *analysis.Analyzer) []*analysis.Analyzer {
	var checks []*analysis.Analyzer
	for _, newCheck := range constructors {
		checks = append(checks, newCheck(model))
	}
	return checks
}

// Default returns the checks on the default contract analyzer, whose
// options are bound to its flags.
func Default() []*analysis.Analyzer { return Analyzers(contract.Analyzer) }

// constructors builds each check on a contract analyzer, in the order the
// contract lists them.
var constructors = []func(model *analysis.Analyzer) *analysis.Analyzer{}
