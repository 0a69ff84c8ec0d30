package ackretryable_test

import (
	"path/filepath"
	"strings"
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

// TestDoc checks the analyzer's Doc is doc.go's section: a lowercase title
// line of at most 60 characters, then a body that says what counts as a
// classification.
func TestDoc(t *testing.T) {
	title, body, _ := strings.Cut(ackretryable.Analyzer.Doc, "\n")
	if !strings.HasPrefix(title, "ackretryable: ") || len(title) > 60 {
		t.Errorf("title %q: want \"ackretryable: ...\" of at most 60 characters", title)
	}
	for _, want := range []string{"errors.As", "errors.Is", "type switch", "Across packages"} {
		if !strings.Contains(body, want) {
			t.Errorf("doc does not mention %s", want)
		}
	}
}
