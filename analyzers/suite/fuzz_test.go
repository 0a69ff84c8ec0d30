package suite_test

import (
	"bytes"
	"encoding/gob"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/suite"
)

// FuzzChecks feeds consumer sources to every check and fails on a panic.
// Its seeds are the Go files of the checks' test trees (testdata/src,
// without the library stubs); each input is parsed as one file of a
// package that may import the stubs and the standard packages the test
// trees use, type-checked (type errors are kept, as drivers do), and run
// through the model, the checks and the meta check, whose facts are then
// encoded as the go vet driver would. Inputs that do not parse are
// skipped: no driver analyzes a file it cannot parse.
//
//	go test -run '^$' -fuzz FuzzChecks -fuzztime 10m ./analyzers/suite
func FuzzChecks(f *testing.F) {
	root := filepath.Join(checktest.TestData(), "src")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && (rel == "github.com" || rel == "golang.org") {
			return filepath.SkipDir // library stubs, not consumers
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f.Add(src)
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	imports := fuzzImports(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		analyzeSource(t, imports, src)
	})
}

// TestFuzzHarness: the fuzz target's driver runs the checks for real: a
// seed with a defect of each kind is reported by its check.
func TestFuzzHarness(t *testing.T) {
	imports := fuzzImports(t)
	for check, file := range map[string]string{
		"barenak":       "barenak/a/a.go",
		"termbeforedlq": "termbeforedlq/a/a.go",
		"retryflatten":  "retryflatten/a/a.go",
	} {
		src, err := os.ReadFile(filepath.Join(checktest.TestData(), "src", file))
		if err != nil {
			t.Fatal(err)
		}
		if got := analyzeSource(t, imports, src); got[check] == 0 {
			t.Errorf("%s: %s reported nothing (all reports: %v)", file, check, got)
		}
	}
}

// fuzzImportPaths are the packages a fuzzed file may import: the library
// stubs and the standard packages of the test trees.
var fuzzImportPaths = []string{
	"github.com/nats-io/nats.go", "github.com/nats-io/nats.go/jetstream", "retrykit", "quemq",
	"golang.org/x/sync/errgroup",
	"bytes", "context", "encoding/json", "errors", "fmt", "io", "log", "log/slog",
	"net/http", "os", "strconv", "strings", "sync", "time",
}

var (
	fuzzImportsOnce sync.Once
	fuzzImportsMap  map[string]*types.Package
	fuzzImportsErr  error
)

// fuzzImports loads the importable packages once, from export data, in
// the test trees' GOPATH.
func fuzzImports(tb testing.TB) map[string]*types.Package {
	fuzzImportsOnce.Do(func() {
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps,
			Dir:  checktest.TestData(),
			Env:  append(os.Environ(), "GOPATH="+checktest.TestData(), "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
		}
		pkgs, err := packages.Load(cfg, fuzzImportPaths...)
		if err != nil {
			fuzzImportsErr = err
			return
		}
		fuzzImportsMap = make(map[string]*types.Package)
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			if len(p.Errors) > 0 {
				fuzzImportsErr = p.Errors[0]
			}
			if p.Types != nil {
				fuzzImportsMap[p.PkgPath] = p.Types
			}
		})
	})
	if fuzzImportsErr != nil {
		tb.Fatal(fuzzImportsErr)
	}
	return fuzzImportsMap
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// analyzeSource parses src as one file, type-checks it against imports
// and runs every analyzer of the command line on it, as a driver would.
// It returns the diagnostics reported, by analyzer.
func analyzeSource(t *testing.T, imports map[string]*types.Package, src []byte) map[string]int {
	fset := token.NewFileSet()
	const name = "consumer.go"
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Instances:    make(map[*ast.Ident]types.Instance),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		Scopes:       make(map[ast.Node]*types.Scope),
		FileVersions: make(map[*ast.File]string),
	}
	var typeErrors []types.Error
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if p, ok := imports[path]; ok {
				return p, nil
			}
			return nil, os.ErrNotExist
		}),
		Error:     func(err error) { typeErrors = append(typeErrors, err.(types.Error)) },
		GoVersion: "go1.26",
		Sizes:     types.SizesFor("gc", "amd64"),
	}
	pkg, _ := conf.Check(file.Name.Name, fset, []*ast.File{file}, info)

	reported := make(map[string]int)
	facts := make(map[factKey]analysis.Fact)
	results := make(map[*analysis.Analyzer]any)
	var run func(a *analysis.Analyzer) bool
	run = func(a *analysis.Analyzer) bool {
		if _, done := results[a]; done {
			return results[a] != nil
		}
		results[a] = nil
		resultOf := make(map[*analysis.Analyzer]any)
		for _, req := range a.Requires {
			if !run(req) {
				return false
			}
			resultOf[req] = results[req]
		}
		if len(typeErrors) > 0 && !a.RunDespiteErrors {
			return false // drivers skip it, and what requires it
		}
		pass := &analysis.Pass{
			Analyzer:   a,
			Fset:       fset,
			Files:      []*ast.File{file},
			Pkg:        pkg,
			TypesInfo:  info,
			TypesSizes: conf.Sizes,
			TypeErrors: typeErrors,
			ResultOf:   resultOf,
			Module:     &analysis.Module{},
			Report:     func(analysis.Diagnostic) { reported[a.Name]++ },
			ReadFile: func(filename string) ([]byte, error) {
				if filename == name {
					return src, nil
				}
				return nil, os.ErrNotExist
			},
			ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
				return importFact(facts, factKey{a, obj, nil, reflect.TypeOf(fact)}, fact)
			},
			ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
				facts[factKey{a, obj, nil, reflect.TypeOf(fact)}] = fact
			},
			ImportPackageFact: func(p *types.Package, fact analysis.Fact) bool {
				return importFact(facts, factKey{a, nil, p, reflect.TypeOf(fact)}, fact)
			},
			ExportPackageFact: func(fact analysis.Fact) {
				facts[factKey{a, nil, pkg, reflect.TypeOf(fact)}] = fact
			},
			AllObjectFacts:  func() []analysis.ObjectFact { return nil },
			AllPackageFacts: func() []analysis.PackageFact { return nil },
		}
		res, err := a.Run(pass)
		if err != nil {
			return false
		}
		if res == nil {
			res = struct{}{}
		}
		results[a] = res
		return true
	}
	for _, a := range suite.Roots() {
		run(a)
	}
	// The go vet driver encodes every fact: the codecs must take them.
	for _, fact := range facts {
		if err := gob.NewEncoder(new(bytes.Buffer)).Encode(fact); err != nil {
			t.Errorf("encoding %T: %v", fact, err)
		}
	}
	return reported
}

// factKey names a fact of one analyzer about an object or a package.
type factKey struct {
	a   *analysis.Analyzer
	obj types.Object
	pkg *types.Package
	typ reflect.Type
}

// importFact copies the fact stored under k into fact.
func importFact(facts map[factKey]analysis.Fact, k factKey, fact analysis.Fact) bool {
	stored, ok := facts[k]
	if ok {
		reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(stored).Elem())
	}
	return ok
}
