package transient

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// solveSource solves the transient paths of function f of src
// (package x; its imports are type-checked from source) with the stages below this one built over it,
// and returns the state just before each probe() call, in source order,
// with the function's error parameter.
func solveSource(t *testing.T, src string) ([]*flowState, *types.Var) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package x\nimport \"time\"\nvar _ time.Duration\n"+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: make(map[ast.Expr]types.TypeAndValue), Defs: make(map[*ast.Ident]types.Object),
		Uses: make(map[*ast.Ident]types.Object), Implicits: make(map[ast.Node]types.Object),
		Selections: make(map[*ast.SelectorExpr]*types.Selection), Scopes: make(map[ast.Node]*types.Scope),
	}
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check("x", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	var decls []*ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			decls = append(decls, fd)
		}
	}
	idx := defs.Build(info, syntax.NewIndex([]*ast.File{f}, nil).Flow)
	defsOf := func() *defs.Index { return idx }
	prod := producers.Build(info, pkg, "RetryDelay", true, producers.Imported{}, defsOf, goast.Returns, decls, nil)
	m := Build(Inputs{Info: info, Pkg: pkg, CarrierMethod: "RetryDelay", Prod: prod, Defs: defsOf,
		Graphs: cfgs.New(info, func(*types.Func) bool { return false }), Decls: decls})
	var fn *ast.FuncDecl
	for _, d := range decls {
		if d.Name.Name == "f" {
			fn = d
		}
	}
	body := fn.Body
	p := m.newPathAnalysis(body)
	if !p.converged {
		t.Fatal("did not converge")
	}
	var states []*flowState
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "probe" {
				states = append(states, p.stateBefore(p.calls[call]))
			}
		}
		return true
	})
	errVar := pkg.Scope().Lookup("f").Type().(*types.Signature).Params().At(0)
	return states, errVar
}

// TestTypeSwitchCases checks what the edges of a type-switch clause of
// several types tell, read from the clause: its body that one of them
// matched (the join of what each match tells), the edge past its last
// test that none did, and the edges between its tests nothing (a body
// reached through the second test did not see the error fail the first).
func TestTypeSwitchCases(t *testing.T) {
	states, err := solveSource(t, `
type A struct{}
func (*A) Error() string { return "" }
func (*A) RetryDelay() time.Duration { return 0 }
type B struct{}
func (B) Error() string { return "" }
func (B) RetryDelay() time.Duration { return 0 }
type C struct{}
func (*C) Error() string { return "" }

func f(err error) {
	switch err.(type) {
	case *A, B:
		probe()
	case *C, nil:
		probe()
	default:
		probe()
	}
}

func probe() {}
`)
	if len(states) != 3 {
		t.Fatalf("%d probes reached, want 3", len(states))
	}
	for i, c := range []struct {
		transient, nonNil, isNil, excluded, identified bool
	}{
		{transient: true, nonNil: true},    // *A or B: both carriers, neither failed
		{excluded: true, identified: true}, // *C (identified) or nil: nothing must
		{excluded: true, nonNil: true},     // none matched: the carriers failed, not nil
	} {
		f := states[i].errs[err]
		got := struct{ transient, nonNil, isNil, excluded, identified bool }{
			bool(f.transient), bool(f.nonNil), bool(f.isNil), bool(f.excluded), bool(f.identified)}
		if got != c {
			t.Errorf("probe %d: %+v, want %+v", i, got, c)
		}
	}
}
