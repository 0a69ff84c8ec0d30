package directives_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
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

// TestMissingDecodeFuncs: decode-funcs entries are judged as dlq-funcs
// entries are, and the report names the option.
func TestMissingDecodeFuncs(t *testing.T) {
	all := suite.All()
	setFlag(t, contract.Analyzer, contract.FlagDecodeFuncs,
		"directives/decodefuncs.Codec.Open,directives/decodefuncs.unwrap,directives/decodefuncs.Codec.Opne,example.com/other.Missing")
	analysistest.Run(t, checktest.TestData(), all[len(all)-1], "directives/decodefuncs")
}

// TestUnknownCheckNames: a check list with a name that is no check is
// reported, and plain reasons stay reasons (see checks' checkList).
func TestUnknownCheckNames(t *testing.T) {
	all := suite.All()
	analysistest.Run(t, checktest.TestData(), all[len(all)-1], "directives/typos")
}

// TestFileIgnore: //retrylint:file-ignore follows the line directive's
// rules: a reason and check names are required, unused ones are reported.
func TestFileIgnore(t *testing.T) {
	all := suite.All()
	analysistest.Run(t, checktest.TestData(), all[len(all)-1], "directives/fileignore")
}

// TestExcludedFiles: no directive is reported in a file every check
// excludes (-retrycontract.exclude); a directive for a check that
// excludes its file (-retryflatten.exclude) suppresses nothing.
func TestExcludedFiles(t *testing.T) {
	all := suite.All()
	dir := filepath.Join(checktest.TestData(), "src", "directives", "exclude")
	setFlag(t, contract.Analyzer, contract.FlagExclude, filepath.Join(dir, "all_*.go"))
	setFlag(t, all[0], contract.FlagExclude, filepath.Join(dir, "check_excluded.go"))
	analysistest.Run(t, checktest.TestData(), all[len(all)-1], "directives/exclude")
}

// setFlag sets an analyzer's flag for the test.
func setFlag(t *testing.T, a *analysis.Analyzer, name, value string) {
	t.Helper()
	f := a.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("%s has no flag %s", a.Name, name)
	}
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set("") })
}
