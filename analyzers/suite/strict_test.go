package suite_test

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/suite"
)

// strictPasses wraps analyzers so that their passes refuse fact imports and
// exports once Run has returned, as the analysis API documents ("panics if
// called after the pass is complete") and some drivers may enforce. The
// wrapper translates ResultOf back to the original analyzers, so the
// wrapped checks find their requirements' results.
type strictPasses struct {
	wrapped map[*analysis.Analyzer]*analysis.Analyzer
}

func (s *strictPasses) wrap(a *analysis.Analyzer) *analysis.Analyzer {
	if w, ok := s.wrapped[a]; ok {
		return w
	}
	w := *a
	w.Requires = nil
	for _, req := range a.Requires {
		w.Requires = append(w.Requires, s.wrap(req))
	}
	w.Run = func(pass *analysis.Pass) (any, error) {
		done := false
		refuse := func(what string) {
			if done {
				panic(fmt.Sprintf("%s: %s after Run returned", a.Name, what))
			}
		}
		p := *pass
		p.ResultOf = make(map[*analysis.Analyzer]any)
		for _, req := range a.Requires {
			p.ResultOf[req] = pass.ResultOf[s.wrapped[req]]
		}
		p.ImportObjectFact = func(obj types.Object, f analysis.Fact) bool {
			refuse("ImportObjectFact")
			return pass.ImportObjectFact(obj, f)
		}
		p.ImportPackageFact = func(pkg *types.Package, f analysis.Fact) bool {
			refuse("ImportPackageFact")
			return pass.ImportPackageFact(pkg, f)
		}
		p.ExportObjectFact = func(obj types.Object, f analysis.Fact) {
			refuse("ExportObjectFact")
			pass.ExportObjectFact(obj, f)
		}
		p.ExportPackageFact = func(f analysis.Fact) {
			refuse("ExportPackageFact")
			pass.ExportPackageFact(f)
		}
		p.AllObjectFacts = func() []analysis.ObjectFact {
			refuse("AllObjectFacts")
			return pass.AllObjectFacts()
		}
		p.AllPackageFacts = func() []analysis.PackageFact {
			refuse("AllPackageFacts")
			return pass.AllPackageFacts()
		}
		defer func() { done = true }()
		return a.Run(&p)
	}
	s.wrapped[a] = &w
	return &w
}

// TestNoFactAccessAfterRun runs every check, on a contract model whose
// passes refuse fact access after Run, over every test package of every
// check: the model must read all the facts it needs during its own Run,
// and the checks, which run after it, must not reach back into its pass.
func TestNoFactAccessAfterRun(t *testing.T) {
	s := &strictPasses{wrapped: make(map[*analysis.Analyzer]*analysis.Analyzer)}
	model := s.wrap(contract.New(contract.DefaultConfig()))
	testdata := checktest.TestData()
	for _, check := range suite.Checks(model) {
		check := s.wrap(check)
		pkgs := checkPackages(t, testdata, check.Name)
		t.Run(check.Name, func(t *testing.T) {
			t.Parallel()
			analysistest.Run(t, testdata, check, pkgs...)
		})
	}
}

// checkPackages lists the test packages of a check's tree: every directory
// under testdata/src/<check> that holds Go files, except those whose
// expectations depend on a configuration other than the default, and
// those that expect facts of the contract model (its own tests run them).
func checkPackages(t *testing.T, testdata, check string) []string {
	root := filepath.Join(testdata, "src")
	var pkgs []string
	err := filepath.WalkDir(filepath.Join(root, check), func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		switch d.Name() {
		case "configured", "fix", "profile", "exclude":
			return filepath.SkipDir
		}
		if files, _ := filepath.Glob(filepath.Join(path, "*.go")); len(files) > 0 && !expectsFacts(files) {
			rel, _ := filepath.Rel(root, path)
			pkgs = append(pkgs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// factWant matches an analysistest fact expectation: // want Name:"fact".
var factWant = regexp.MustCompile(`// want \w+:"`)

// expectsFacts reports whether some file expects a fact.
func expectsFacts(files []string) bool {
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && factWant.Match(data) {
			return true
		}
	}
	return false
}
