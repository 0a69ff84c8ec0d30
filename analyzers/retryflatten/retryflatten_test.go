package retryflatten_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/retryflatten"
)

var testdata = checktest.TestData()

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	checktest.RunStandard(t, retryflatten.Analyzer)
}

func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer,
		"retryflatten/crosspkg/upstream", "retryflatten/crosspkg/middle", "retryflatten/crosspkg/downstream")
}

func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, retryflatten.Analyzer, "retryflatten/fix")
}

func TestCgo(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/cgo")
}
