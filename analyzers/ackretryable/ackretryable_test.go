package ackretryable_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/ackretryable"
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
	analysistest.Run(t, testdata, ackretryable.Analyzer, "ackretryable/a")
}

func TestNotReported(t *testing.T) {
	analysistest.Run(t, testdata, ackretryable.Analyzer, "ackretryable/notreported")
}

func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, testdata, ackretryable.Analyzer,
		"ackretryable/crosspkg/upstream", "ackretryable/crosspkg/middle", "ackretryable/crosspkg/downstream")
}

func TestTypeParams(t *testing.T) {
	analysistest.Run(t, testdata, ackretryable.Analyzer, "ackretryable/typeparams")
}

func TestBrokenCode(t *testing.T) {
	analysistest.Run(t, testdata, ackretryable.Analyzer, "ackretryable/broken")
}

func TestGeneratedSkipped(t *testing.T) {
	analysistest.Run(t, testdata, ackretryable.Analyzer, "ackretryable/generated")
}

func TestSuppression(t *testing.T) {
	analysistest.Run(t, testdata, ackretryable.Analyzer, "ackretryable/suppress")
}
