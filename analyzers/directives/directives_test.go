package directives_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/suite"
)

func TestDirectives(t *testing.T) {
	all := suite.All()
	analysistest.Run(t, checktest.TestData(), all[len(all)-1], "directives/a")
}

// TestCheckNames: the checks a directive can name are the suite's.
func TestCheckNames(t *testing.T) {
	var names []string
	for _, a := range suite.Default() {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, contract.CheckNames) {
		t.Fatalf("contract.CheckNames = %v, the suite's checks are %v", contract.CheckNames, names)
	}
}
