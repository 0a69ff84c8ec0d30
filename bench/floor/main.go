// Command floor is the baseline for bench/natsserver.sh: a multichecker
// whose only analyzer declares a fact type and does nothing. Declaring a
// fact makes the checker load and type-check every dependency from source,
// as retrylint's analyzers do, so floor costs what any fact analyzer pays
// before it starts work; retrylint is measured as a ratio to it.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
)

// noFact is declared so that the checker loads everything from source; it is
// never exported.
type noFact struct{}

func (*noFact) AFact() {}

var analyzer = &analysis.Analyzer{
	Name:      "floor",
	Doc:       "does nothing; declares a fact type so that all dependencies are loaded from source",
	FactTypes: []analysis.Fact{new(noFact)},
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { multichecker.Main(analyzer) }
