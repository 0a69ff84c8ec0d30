package retryflatten_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/retryflatten"
)

var testdata = checktest.TestData()

// batch runs the check over the packages of all the tests below that do
// not check suggested fixes, in one load.
var batch = checktest.NewBatch(retryflatten.Analyzer, checktest.StandardPackages("retryflatten",
	"retryflatten/crosspkg/upstream", "retryflatten/crosspkg/middle", "retryflatten/crosspkg/downstream",
	"retryflatten/cgo",
)...)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	t.Parallel()
	batch.RunStandard(t)
}

func TestAcrossPackages(t *testing.T) {
	t.Parallel()
	batch.Run(t, "retryflatten/crosspkg/upstream", "retryflatten/crosspkg/middle", "retryflatten/crosspkg/downstream")
}

func TestSuggestedFixes(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, testdata, retryflatten.Analyzer, "retryflatten/fix")
}

func TestCgo(t *testing.T) {
	t.Parallel()
	batch.Run(t, "retryflatten/cgo")
}
