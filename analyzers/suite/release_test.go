package suite_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/suite"
)

// TestMetaReleasesModels: once the meta check, the last reader of a
// package's model, is done, the model holds nothing the drivers would
// keep alive to the end of the run (Model.Release); the checks still
// reported what they found.
func TestMetaReleasesModels(t *testing.T) {
	testdata := checktest.TestData()
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  testdata,
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
	}, "termbeforedlq/...")
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(suite.Roots(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	models, findings := 0, 0
	for act := range graph.All() {
		findings += len(act.Diagnostics)
		m, ok := act.Result.(*contract.Model)
		if !ok || !act.IsRoot {
			continue
		}
		models++
		if m.Messages() != nil || m.Paths() != nil || m.Handlers() != nil || m.Config() == nil {
			t.Errorf("%s: the model of a root package was not released after the meta check", act.Package.PkgPath)
		}
	}
	if models == 0 || findings == 0 {
		t.Fatalf("%d root models, %d findings: the corpus (%s) did not load", models, findings, filepath.Join(testdata, "src", "termbeforedlq"))
	}
}
