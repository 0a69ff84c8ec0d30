package directives_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/suite"
)

func TestDirectives(t *testing.T) {
	all := suite.All()
	analysistest.Run(t, checktest.TestData(), all[len(all)-1], "directives/a")
}

// TestCheckNames: the checks a directive can name are the suite's.
func TestCheckNames(t *testing.T) {
	var names []string
	for _, a := range suite.Default() {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, checks.Names()) {
		t.Fatalf("checks.Names() = %v, the suite's checks are %v", checks.Names(), names)
	}
}

// TestDocURLs: every analyzer's doc URL is a section of docs/contract.md
// that exists.
func TestDocURLs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "contract.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range suite.All() {
		page, anchor, ok := strings.Cut(a.URL, "#")
		if !ok || page != checks.ContractURL || !strings.Contains(string(doc), `<a id="`+anchor+`"></a>`) {
			t.Errorf("%s: URL %q is not a section of docs/contract.md", a.Name, a.URL)
		}
	}
}

// TestMissingDLQFuncs: a dlq-funcs entry that belongs to the package and
// names nothing in it is reported at the package clause; entries that
// exist, and entries of other packages, are not.
func TestMissingDLQFuncs(t *testing.T) {
	all := suite.All()
	f := contract.Analyzer.Flags.Lookup(contract.FlagDLQFuncs)
	if err := f.Value.Set("directives/dlqfuncs.Sink.Park,directives/dlqfuncs.deadLetter,directives/dlqfuncs.Sink.Prak,example.com/other.Missing"); err != nil {
		t.Fatal(err)
	}
	defer f.Value.Set("")
	analysistest.Run(t, checktest.TestData(), all[len(all)-1], "directives/dlqfuncs")
}
