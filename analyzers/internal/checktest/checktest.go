// Package checktest runs retrylint's checks over the repository's shared
// GOPATH-style test tree, testdata/src, where every check keeps the same
// standard set of packages.
package checktest

import (
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestData returns the absolute path of the repository's testdata
// directory (analysistest needs an absolute GOPATH entry).
func TestData() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("checktest: cannot locate the source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
}

// Standard is the set of packages every check has under
// testdata/src/<check>/, with what each proves.
var Standard = []struct{ Pkg, Proves string }{
	{"a", "the shapes the check reports"},
	{"notreported", "look-alikes that must stay quiet"},
	{"typeparams", "generic code"},
	{"broken", "code with type errors: no panic, nothing from broken types"},
	{"generated", "generated files are skipped"},
	{"testfuncs", "test functions are out of scope; the rest of a test file is not"},
	{"suppress", "//retrylint:ignore and //nolint:retrylint; plain comments do not exempt"},
}

// RunStandard runs a over each standard package of its tree as a subtest.
func RunStandard(t *testing.T, a *analysis.Analyzer) {
	for _, p := range Standard {
		t.Run(p.Pkg, func(t *testing.T) {
			analysistest.Run(t, TestData(), a, a.Name+"/"+p.Pkg)
		})
	}
}
