// Package suite lists retrylint's checks. The command line, the go vet
// tool, the golangci-lint plugin and the gopls build all take their
// analyzers from here, so every driver runs the same set.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/ackpermanent"
	"github.com/retrylint/retrylint/analyzers/ackretryable"
	"github.com/retrylint/retrylint/analyzers/barenak"
	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/directives"
	"github.com/retrylint/retrylint/analyzers/dlqunchecked"
	"github.com/retrylint/retrylint/analyzers/poisonack"
	"github.com/retrylint/retrylint/analyzers/retryflatten"
	"github.com/retrylint/retrylint/analyzers/settletwice"
	"github.com/retrylint/retrylint/analyzers/termbeforedlq"
	"github.com/retrylint/retrylint/internal/config"
)

// Checks returns the checks built on model, a contract analyzer carrying
// the run's configuration (contract.New). Use it when the configuration
// does not come from the default analyzer's flags, as in the golangci-lint
// plugin.
func Checks(model *analysis.Analyzer) []*analysis.Analyzer {
	var checks []*analysis.Analyzer
	for _, newCheck := range constructors {
		checks = append(checks, newCheck(model))
	}
	return checks
}

// Default returns the package-level checks, built on contract.Analyzer.
func Default() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		retryflatten.Analyzer,
		termbeforedlq.Analyzer,
		barenak.Analyzer,
		ackretryable.Analyzer,
		dlqunchecked.Analyzer,
		poisonack.Analyzer,
		settletwice.Analyzer,
		ackpermanent.Analyzer,
	}
}

// Meta returns the directives meta check (named retrylint) over the
// checks that run: it reports suppression directives without a reason
// and those that suppress nothing.
func Meta(model *analysis.Analyzer, checks []*analysis.Analyzer) *analysis.Analyzer {
	return directives.New(model, checks)
}

// All returns the default checks and the meta check over them: what an
// editor or a vet-style driver registers.
func All() []*analysis.Analyzer {
	checks := Default()
	return append(checks, Meta(contract.Analyzer, checks))
}

// Configure applies the configuration file found from dir
// (.retrylint.yaml, in dir or a directory above it) to the package-level
// analyzers, for a driver that takes no command line and runs under one
// configuration. (The gopls build, which analyzes packages of several
// modules, uses PerModule instead.) It returns the file's path ("" when
// there is none) and the analyzers the file disables. An error names the
// file and line.
func Configure(dir string) (path string, disabled []string, err error) {
	roots := Roots()
	args, path, err := config.ArgsFor(dir, roots)
	if err != nil || path == "" {
		return path, nil, err
	}
	disabled, err = config.Apply(args, roots)
	return path, disabled, err
}

// Roots returns the analyzers a command line driver runs: the contract
// model first (it reports nothing, but its options become the driver's
// -retrycontract.* flags), then the default checks and the meta check.
func Roots() []*analysis.Analyzer {
	return append([]*analysis.Analyzer{contract.Analyzer}, All()...)
}

// constructors builds each check on a contract analyzer, in the order the
// contract lists them.
var constructors = []func(model *analysis.Analyzer) *analysis.Analyzer{
	retryflatten.New,
	termbeforedlq.New,
	barenak.New,
	ackretryable.New,
	dlqunchecked.New,
	poisonack.New,
	settletwice.New,
	ackpermanent.New,
}
