package termbeforedlq_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/termbeforedlq"
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
	analysistest.Run(t, testdata, termbeforedlq.Analyzer, "termbeforedlq/a")
}
