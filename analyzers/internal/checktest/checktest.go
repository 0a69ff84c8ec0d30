// Package checktest runs retrylint's checks over the repository's shared
// GOPATH-style test tree, testdata/src, where every check keeps the same
// standard set of packages.
package checktest

import (
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
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

// StandardPackages returns the import paths of check's standard packages
// followed by more.
func StandardPackages(check string, more ...string) []string {
	var pkgs []string
	for _, p := range Standard {
		pkgs = append(pkgs, check+"/"+p.Pkg)
	}
	return append(pkgs, more...)
}

// A Batch runs one analyzer over several packages of testdata/src in a
// single analysistest.Run, for all the tests of a check that use that
// analyzer as it is configured. analysistest.Run loads its packages from
// source with everything they import (the standard library, the library
// stubs); a run per test loads all of that again each time, which under
// -race on a busy machine made the loading most of a check's test time.
//
// Each test then asks Run for its own packages and gets what its own
// analysistest.Run over them would have given: the same // want matching
// (analysistest's, done once for every package of the batch), the errors
// of that matching that name a file of its packages, and the results of
// its packages. A package's analysis depends on the package and on what
// it imports, not on the other packages loaded beside it. An error that
// names no file of a package of the batch (a load failure, an error of the
// analyzer, a diagnostic in a file of a library stub) goes to every test
// that uses the batch, so none is lost.
//
// The batch runs once per test binary, when a test first asks for it.
type Batch struct {
	a    *analysis.Analyzer
	pkgs []string

	once    sync.Once
	results []*analysistest.Result
	reports []report
}

// A report is an error or a log line of the batch's run, with the package
// whose tests it belongs to ("" for all of them).
type report struct {
	pkg, msg string
	log      bool
}

// NewBatch returns a batch that runs a over pkgs, import paths of
// testdata/src (no patterns with "...").
func NewBatch(a *analysis.Analyzer, pkgs ...string) *Batch {
	for _, p := range pkgs {
		if strings.Contains(p, "...") {
			panic("checktest: a batch takes import paths, not " + p)
		}
	}
	return &Batch{a: a, pkgs: pkgs}
}

// recorder is the analysistest.Testing of a batch's run: it keeps the
// errors for the tests to replay.
type recorder struct{ b *Batch }

func (r recorder) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.b.reports = append(r.b.reports, report{pkg: r.b.owner(msg), msg: msg})
}

func (b *Batch) run() {
	b.results = analysistest.Run(recorder{b}, TestData(), b.a, b.pkgs...)
	// analysistest.Run logs the packages' parse and type errors to a test
	// it is given (not to a recorder): do it here, to the tests of the
	// root package they were loaded for.
	if b.a.RunDespiteErrors {
		return
	}
	type seen struct {
		pkg string
		p   *packages.Package
	}
	logged := make(map[seen]bool)
	for _, r := range b.results {
		pkg := rootOf(r.Action.Package.PkgPath)
		packages.Visit([]*packages.Package{r.Action.Package}, nil, func(p *packages.Package) {
			if logged[seen{pkg, p}] {
				return
			}
			logged[seen{pkg, p}] = true
			for _, err := range p.Errors {
				b.reports = append(b.reports, report{pkg: pkg, msg: err.Error(), log: true})
			}
		})
	}
}

// rootOf returns the package of testdata/src that a root package of the
// run was loaded for: the package itself, its test variant, its external
// test package (path_test) or its test main (path.test).
func rootOf(pkgPath string) string {
	return strings.TrimSuffix(strings.TrimSuffix(pkgPath, "_test"), ".test")
}

// owner returns the package of the batch whose file msg names first, or
// "". analysistest names a file relative to testdata/src at the start of
// the errors of // want matching, and absolutely elsewhere.
func (b *Batch) owner(msg string) string {
	switch {
	case strings.HasPrefix(msg, "loading "), strings.HasPrefix(msg, "Analyze: "):
		return "" // the run failed as a whole
	case strings.HasPrefix(msg, "error analyzing "):
		// "error analyzing analyzer@package id: error"
		_, id, _ := strings.Cut(msg, "@")
		if i := strings.IndexAny(id, " :"); i >= 0 {
			id = id[:i]
		}
		if pkg := rootOf(id); slices.Contains(b.pkgs, pkg) {
			return pkg
		}
		return ""
	}
	file, _, ok := strings.Cut(msg, ":")
	if !ok {
		return ""
	}
	src := filepath.Join(TestData(), "src") + string(filepath.Separator)
	if i := strings.Index(msg, src); i >= 0 {
		file, _, _ = strings.Cut(msg[i+len(src):], ":")
	} else if filepath.IsAbs(file) {
		return ""
	}
	if pkg := path.Dir(filepath.ToSlash(file)); slices.Contains(b.pkgs, pkg) {
		return pkg
	}
	return ""
}

// Run runs the batch if no test has yet, reports to t the errors of the
// run that belong to pkgs (and those that belong to no package of the
// batch), and returns the results of pkgs' root packages.
func (b *Batch) Run(t testing.TB, pkgs ...string) []*analysistest.Result {
	t.Helper()
	for _, p := range pkgs {
		if !slices.Contains(b.pkgs, p) {
			t.Fatalf("checktest: %s is not a package of the batch", p)
		}
	}
	b.once.Do(b.run)
	for _, r := range b.reports {
		switch {
		case r.pkg != "" && !slices.Contains(pkgs, r.pkg):
		case r.log:
			t.Log(r.msg)
		default:
			t.Errorf("%s", r.msg)
		}
	}
	var results []*analysistest.Result
	for _, p := range pkgs {
		n := len(results)
		for _, r := range b.results {
			if rootOf(r.Action.Package.PkgPath) == p {
				results = append(results, r)
			}
		}
		if len(results) == n && len(b.results) > 0 {
			t.Errorf("checktest: the batch's run has no result for %s", p)
		}
	}
	return results
}

// RunStandard runs, as a subtest each, the batch's analyzer over the
// standard packages of its check (which must be in the batch).
func (b *Batch) RunStandard(t *testing.T) {
	for _, p := range Standard {
		t.Run(p.Pkg, func(t *testing.T) {
			b.Run(t, b.a.Name+"/"+p.Pkg)
		})
	}
}

// CheckForeign checks the diagnostics of results, reports of handlers
// declared in another package (analyzers/internal/foreign): there is at
// least one; each is in a file of the package it was reported for (the
// `// want` comments place it at the registration); its first related location is the handler's return, in a
// file named handlerFile; the next are the check's own, whose messages
// contain own in order.
func CheckForeign(t testing.TB, results []*analysistest.Result, handlerFile string, own ...string) {
	t.Helper()
	n := 0
	for _, r := range results {
		fset := r.Action.Package.Fset
		for _, d := range r.Diagnostics {
			n++
			at := fset.Position(d.Pos)
			if !slices.Contains(r.Action.Package.CompiledGoFiles, at.Filename) {
				t.Errorf("%s: reported outside its package %s", at, r.Action.Package.PkgPath)
			}
			if len(d.Related) < 1+len(own) {
				t.Errorf("%s: related = %v, want the return and %q", at, d.Related, own)
				continue
			}
			if ret := fset.Position(d.Related[0].Pos); d.Related[0].Message != "the handler returns nil here" || filepath.Base(ret.Filename) != handlerFile {
				t.Errorf("%s: first related %q at %s, want the handler's return in %s", at, d.Related[0].Message, ret, handlerFile)
			}
			for i, msg := range own {
				if !strings.Contains(d.Related[1+i].Message, msg) {
					t.Errorf("%s: related %d = %q, want %q", at, 1+i, d.Related[1+i].Message, msg)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no diagnostic at a registration")
	}
}
