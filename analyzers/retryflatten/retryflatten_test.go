package retryflatten_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
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

// TestExclude: -retrycontract.exclude and the check's own -exclude keep
// the findings of the files they match from being reported.
func TestExclude(t *testing.T) {
	dir := filepath.Join(testdata, "src", "retryflatten", "exclude")
	for _, f := range []struct {
		a    *analysis.Analyzer
		glob string
	}{
		{contract.Analyzer, filepath.Join(dir, "legacy_*.go")},
		{retryflatten.Analyzer, "exclude/flattened.go"},
	} {
		fl := f.a.Flags.Lookup(contract.FlagExclude)
		if err := fl.Value.Set(f.glob); err != nil {
			t.Fatal(err)
		}
		defer fl.Value.Set("")
	}
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/exclude")
}
