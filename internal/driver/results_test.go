package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/suite"
)

// TestJSONFromResults: the JSON printed from the results (as replayed
// from the package cache) is byte-identical to x/tools' own
// (checker.Graph.PrintJSON), on the examples and the analyzer corpus.
func TestJSONFromResults(t *testing.T) {
	corpus, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]*packages.Config{
		"examples": {Dir: filepath.Join("..", "..", "examples")},
		// The analyzers' corpus is in GOPATH layout, as analysistest reads it.
		"corpus": {Dir: filepath.Join(corpus, "src"), Env: append(os.Environ(), "GOPATH="+corpus, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg.Mode = packages.LoadAllSyntax
			cfg.Tests = true
			pkgs, err := packages.Load(cfg, "./...")
			if err != nil {
				t.Fatal(err)
			}
			graph, err := checker.Analyze(suite.Roots(), pkgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f := failuresOf(graph); len(f) > 0 {
				t.Fatalf("analysis failures: %v", f)
			}
			var want, got bytes.Buffer
			if err := graph.PrintJSON(&want); err != nil {
				t.Fatal(err)
			}
			if err := printJSON(&got, resultsOf(graph)); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("printJSON differs from PrintJSON:\n%s\nwant:\n%s", got.String(), want.String())
			}
			if n := bytes.Count(want.Bytes(), []byte(`"posn"`)); n < 20 {
				t.Errorf("only %d positions in the JSON: the comparison proves little", n)
			}
		})
	}
}
