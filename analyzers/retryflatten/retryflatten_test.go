package retryflatten_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/retryflatten"
)

// testdata is the repository's shared GOPATH-style test tree (analysistest
// needs an absolute path).
var testdata = func() string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		panic(err)
	}
	return dir
}()

func TestPositives(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/a")
}

func TestNotReported(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/notreported")
}

func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer,
		"retryflatten/crosspkg/upstream", "retryflatten/crosspkg/middle", "retryflatten/crosspkg/downstream")
}

func TestTypeParams(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/typeparams")
}

func TestBrokenCode(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/broken")
}

func TestGeneratedSkipped(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/generated")
}

func TestSuppression(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/suppress")
}

func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, retryflatten.Analyzer, "retryflatten/fix")
}

func TestCgo(t *testing.T) {
	analysistest.Run(t, testdata, retryflatten.Analyzer, "retryflatten/cgo")
}
