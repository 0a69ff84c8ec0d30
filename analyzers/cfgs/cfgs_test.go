package cfgs_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/cfgs"
)

// noReturnAnalyzer is cfgs.NoReturn as an analyzer of its own, the way the
// contract model runs it: over the package's function declarations, with
// the NoReturnFacts of other packages as what is known of them, exporting
// a fact for each function found.
var noReturnAnalyzer = &analysis.Analyzer{
	Name:      "noreturn",
	Doc:       "exports cfgs.NoReturnFact for the functions cfgs.NoReturn finds",
	FactTypes: []analysis.Fact{new(cfgs.NoReturnFact)},
	Run: func(pass *analysis.Pass) (any, error) {
		var decls []*ast.FuncDecl
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					decls = append(decls, fd)
				}
			}
		}
		known := func(fn *types.Func) bool {
			return fn != nil && fn.Pkg() != nil && fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, new(cfgs.NoReturnFact))
		}
		for fn := range cfgs.NoReturn(pass.TypesInfo, decls, known) {
			pass.ExportObjectFact(fn, new(cfgs.NoReturnFact))
		}
		return nil, nil
	},
}

// TestNoReturnFacts proves the no-return inference with `// want` marks
// on facts (as x/tools' ctrlflow does): the functions that end with a
// call to panic, to an intrinsic, or to a no-return function of the same
// package (declared before or after) or of another package (through its
// fact), including methods, method expressions and generic instances;
// and the look-alikes that return or are taken to: a conditional panic,
// a return anywhere, a shadowed panic, logging and testing calls that
// return, a loop, callees not known statically (function and method
// values, parameters, interface methods, literals).
func TestNoReturnFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), noReturnAnalyzer, "noreturn/lib", "noreturn/a")
}

// checked parses and type-checks one file of package p.
func checked(t *testing.T, src string) (*ast.File, *types.Info, *types.Package) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
		Instances:  make(map[*ast.Ident]types.Instance),
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return f, info, pkg
}

// funcDecls returns the function declarations of f by name.
func funcDecls(f *ast.File) map[string]*ast.FuncDecl {
	out := make(map[string]*ast.FuncDecl)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			out[fd.Name.Name] = fd
		}
	}
	return out
}

// names returns the names of the functions of a NoReturn result, sorted.
func names(m map[*types.Func]bool) []string {
	var out []string
	for fn, ok := range m {
		if ok {
			out = append(out, fn.Name())
		}
	}
	slices.Sort(out)
	return out
}

// TestNoReturnKnown proves that NoReturn asks known about the callees
// that are not among decls (a function of another package, or one left
// out), and answers only for decls: the callee known never to return is
// not in the result.
func TestNoReturnKnown(t *testing.T) {
	const src = `package p

func elsewhere() {}

func caller() { elsewhere() }

func twice() { caller() }
`
	f, info, _ := checked(t, src)
	fds := funcDecls(f)
	decls := []*ast.FuncDecl{fds["caller"], fds["twice"]}
	var asked []string
	known := func(fn *types.Func) bool {
		if fn != nil {
			asked = append(asked, fn.Name())
		}
		return fn != nil && fn.Name() == "elsewhere"
	}
	if got, want := names(cfgs.NoReturn(info, decls, known)), []string{"caller", "twice"}; !slices.Equal(got, want) {
		t.Errorf("NoReturn with elsewhere known = %v, want %v", got, want)
	}
	if !slices.Contains(asked, "elsewhere") {
		t.Errorf("known was asked about %v, not about elsewhere", asked)
	}
	never := func(*types.Func) bool { return false }
	if got := names(cfgs.NoReturn(info, decls, never)); len(got) != 0 {
		t.Errorf("NoReturn with nothing known = %v, want none", got)
	}
	// Over all three declarations with nothing known: elsewhere's empty
	// body returns, and so do its callers.
	all := []*ast.FuncDecl{fds["elsewhere"], fds["caller"], fds["twice"]}
	if got := names(cfgs.NoReturn(info, all, never)); len(got) != 0 {
		t.Errorf("NoReturn over all declarations = %v, want none", got)
	}
}

// TestHasReturn proves that HasReturn finds a return statement anywhere
// in a node, nested in any statement, but not one of a function literal.
func TestHasReturn(t *testing.T) {
	tests := []struct {
		name string
		body string
		want bool
	}{
		{"empty", ``, false},
		{"plain", `return`, true},
		{"with result", `return 1`, true},
		{"in if", `if x > 0 { return 1 }`, true},
		{"in else", `if x > 0 { x++ } else { return 2 }`, true},
		{"in loop", `for { return 3 }`, true},
		{"in range", `for range x { return 3 }`, true},
		{"in switch", `switch x { case 1: return 1 }`, true},
		{"in type switch", `switch any(x).(type) { case int: return 1 }`, true},
		{"in select", `select { default: return 1 }`, true},
		{"in label", `L: for { break L }; return 4`, true},
		{"in block", `{ { return 5 } }`, true},
		{"in literal only", `f := func() int { return 1 }; _ = f; panic(0)`, false},
		{"in literal called", `func() { return }(); panic(0)`, false},
		{"in deferred literal", `defer func() { return }(); panic(0)`, false},
		{"literal and own", `f := func() int { return 1 }; return f()`, true},
		{"panic only", `panic(x)`, false},
		{"goto", `L: x++; goto L`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\nfunc f(x int) int {\n" + tt.body + "\n}\n"
			f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
			if err != nil {
				t.Fatal(err)
			}
			body := funcDecls(f)["f"].Body
			if got := cfgs.HasReturn(body); got != tt.want {
				t.Errorf("HasReturn(%q) = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}

// TestIntrinsic proves which functions Intrinsic knows never to return:
// the exits of os, syscall and runtime, log's Fatal and Panic functions
// and Logger methods, and testing's FailNow, Fatal and Skip methods
// (through T, B, F and the TB interface); and not their neighbours, nor a
// function of that name in another package, nor a testing function of
// that name without a receiver.
func TestIntrinsic(t *testing.T) {
	const src = `package p

import (
	"log"
	"os"
	"runtime"
	"syscall"
	"testing"
)

var (
	_ = os.Exit
	_ = syscall.Exit
	_ = runtime.Goexit
	_ = log.Fatal
	_ log.Logger
	_ testing.TB
	_ testing.T
	_ testing.B
	_ testing.F
	_ = os.Getenv
	_ = runtime.Gosched
)

type local struct{}

func Exit(int)             {}
func (local) Fatal(...any) {}
func (local) FailNow()     {}
`
	_, _, self := checked(t, src)
	pkgs := map[string]*types.Package{}
	for _, imp := range self.Imports() {
		pkgs[imp.Path()] = imp
	}
	fun := func(path, name string) *types.Func {
		t.Helper()
		p := self
		if path != "p" {
			p = pkgs[path]
		}
		fn, ok := p.Scope().Lookup(name).(*types.Func)
		if !ok {
			t.Fatalf("no function %s.%s", path, name)
		}
		return fn
	}
	method := func(path, typ, name string) *types.Func {
		t.Helper()
		p := self
		if path != "p" {
			p = pkgs[path]
		}
		tn, ok := p.Scope().Lookup(typ).(*types.TypeName)
		if !ok {
			t.Fatalf("no type %s.%s", path, typ)
		}
		var recv types.Type = tn.Type()
		if !types.IsInterface(recv) {
			recv = types.NewPointer(recv)
		}
		sel := types.NewMethodSet(recv).Lookup(nil, name) // exported: no package needed
		if sel == nil {
			t.Fatalf("no method %s.%s.%s", path, typ, name)
		}
		return sel.Obj().(*types.Func)
	}
	// A function of testing named like the methods, without a receiver
	// (testing declares none; made up here): not intrinsic.
	bare := func(name string) *types.Func {
		return types.NewFunc(token.NoPos, pkgs["testing"], name, types.NewSignatureType(nil, nil, nil, nil, nil, false))
	}

	tests := []struct {
		name string
		fn   *types.Func
		want bool
	}{
		{"os.Exit", fun("os", "Exit"), true},
		{"syscall.Exit", fun("syscall", "Exit"), true},
		{"runtime.Goexit", fun("runtime", "Goexit"), true},
		{"log.Fatal", fun("log", "Fatal"), true},
		{"log.Fatalf", fun("log", "Fatalf"), true},
		{"log.Fatalln", fun("log", "Fatalln"), true},
		{"log.Panic", fun("log", "Panic"), true},
		{"log.Panicf", fun("log", "Panicf"), true},
		{"log.Panicln", fun("log", "Panicln"), true},
		{"(*log.Logger).Fatal", method("log", "Logger", "Fatal"), true},
		{"(*log.Logger).Panicf", method("log", "Logger", "Panicf"), true},
		{"(*testing.T).FailNow", method("testing", "T", "FailNow"), true},
		{"(*testing.T).Fatal", method("testing", "T", "Fatal"), true},
		{"(*testing.T).Fatalf", method("testing", "T", "Fatalf"), true},
		{"(*testing.T).SkipNow", method("testing", "T", "SkipNow"), true},
		{"(*testing.T).Skip", method("testing", "T", "Skip"), true},
		{"(*testing.T).Skipf", method("testing", "T", "Skipf"), true},
		{"(*testing.B).Fatal", method("testing", "B", "Fatal"), true},
		{"(*testing.F).Skip", method("testing", "F", "Skip"), true},
		{"testing.TB.Fatalf", method("testing", "TB", "Fatalf"), true},
		{"testing.TB.FailNow", method("testing", "TB", "FailNow"), true},

		{"nil", nil, false},
		{"os.Getenv", fun("os", "Getenv"), false},
		{"runtime.Gosched", fun("runtime", "Gosched"), false},
		{"log.Print", fun("log", "Print"), false},
		{"log.Printf", fun("log", "Printf"), false},
		{"(*log.Logger).Println", method("log", "Logger", "Println"), false},
		{"(*testing.T).Fail", method("testing", "T", "Fail"), false},
		{"(*testing.T).Error", method("testing", "T", "Error"), false},
		{"(*testing.T).Errorf", method("testing", "T", "Errorf"), false},
		{"(*testing.T).Log", method("testing", "T", "Log"), false},
		{"(*testing.T).Skipped", method("testing", "T", "Skipped"), false},
		{"testing.Short", fun("testing", "Short"), false},
		{"testing.Fatal without receiver", bare("Fatal"), false},
		{"testing.FailNow without receiver", bare("FailNow"), false},
		{"testing.Skip without receiver", bare("Skip"), false},
		{"p.Exit", fun("p", "Exit"), false},
		{"p.local.Fatal", method("p", "local", "Fatal"), false},
		{"p.local.FailNow", method("p", "local", "FailNow"), false},
		{"error.Error (no package)", types.Universe.Lookup("error").Type().Underlying().(*types.Interface).Method(0), false},
	}
	for _, tt := range tests {
		if got := cfgs.Intrinsic(tt.fn); got != tt.want {
			t.Errorf("Intrinsic(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestNoReturnFactString proves the fact's text, which `// want` marks
// and -json output show.
func TestNoReturnFactString(t *testing.T) {
	if got := new(cfgs.NoReturnFact).String(); got != "no return" {
		t.Errorf("NoReturnFact.String() = %q", got)
	}
}
