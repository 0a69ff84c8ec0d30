package cfgs_test

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"github.com/retrylint/retrylint/analyzers/cfgs"
)

// TestMayNotReturn proves that MayNotReturn, from the syntax alone,
// finds every function NoReturn finds with the types, and not a function
// that ends in a call of one that returns.
func TestMayNotReturn(t *testing.T) {
	const src = `package p

import (
	"log"
	"os"
	"testing"
)

func Boom()                 { panic("boom") }
func Paren()                { (panic)("x") }
func Exit()                 { os.Exit(2) }
func Fatal(v ...any)        { log.Fatalf("%v", v) }
func chain()                { Boom() }
func Chained()              { chain() }
func Generic[T any](v T)    { fail[T](v) }
func fail[T any](v T)       { panic(v) }
func (t *T) Fail(tb testing.TB) { tb.FailNow() }
func Loop()                 { for {} }
func Returns() int          { if true { return 1 }; panic("x") }
func Logs()                 { log.Print("x") }
func Known()                { elsewhere() }
func elsewhere()            {}

type T struct{}
`
	f, info, _ := checked(t, src)
	var decls []*ast.FuncDecl
	for _, d := range funcDecls(f) {
		decls = append(decls, d)
	}
	slices.SortFunc(decls, func(a, b *ast.FuncDecl) int { return int(a.Pos() - b.Pos()) })
	known := func(fn *types.Func) bool { return fn.Name() == "elsewhere" }
	typed := names(cfgs.NoReturn(info, decls, known))
	var syntactic []string
	for _, d := range cfgs.MayNotReturn(decls, func(name string) bool { return name == "elsewhere" }) {
		syntactic = append(syntactic, d.Name.Name)
	}
	slices.Sort(syntactic)
	for _, name := range typed {
		if !slices.Contains(syntactic, name) {
			t.Errorf("NoReturn finds %s, MayNotReturn does not: %v against %v", name, syntactic, typed)
		}
	}
	want := []string{"Boom", "Chained", "Exit", "Fail", "Fatal", "Generic", "Known", "Paren", "chain", "fail"}
	if !slices.Equal(syntactic, want) {
		t.Errorf("MayNotReturn = %v, want %v", syntactic, want)
	}
}
