package driver

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestObjectSketch: an object drawn from a sketch has the kind, name,
// package and full name of the object sketched, and the checker's
// filter (exportedFrom) lets facts on both through an indirect importer
// alike: what pass.AllObjectFacts consumers can see of an object that
// a dependency's export data does not hold.
func TestObjectSketch(t *testing.T) {
	const src = `package dep

type subFS struct{ Root string }

func (s *subFS) Open(name string) error { return nil }
func (s subFS) Sub() subFS            { return s }
func Walk()                           {}
func walk()                           {}

var Default, fallback subFS

const Limit = 3

type Handler func() error
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "dep.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/dep", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sub := pkg.Scope().Lookup("subFS").Type().(*types.Named)
	objs := []types.Object{
		sub.Method(0), sub.Method(1),
		sub.Underlying().(*types.Struct).Field(0),
		pkg.Scope().Lookup("Walk"), pkg.Scope().Lookup("walk"),
		pkg.Scope().Lookup("Default"), pkg.Scope().Lookup("fallback"),
		pkg.Scope().Lookup("Limit"), pkg.Scope().Lookup("Handler"), pkg.Scope().Lookup("subFS"),
	}
	for _, obj := range objs {
		sk := sketchOf(obj)
		drawn := sk.object(pkg)
		if drawn == nil {
			t.Errorf("%s: no object drawn from %+v", obj, sk)
			continue
		}
		if drawn.Name() != obj.Name() || drawn.Pkg() != obj.Pkg() {
			t.Errorf("%s: drawn %s of %v", obj, drawn.Name(), drawn.Pkg())
		}
		if fn, ok := obj.(*types.Func); ok {
			if d, ok := drawn.(*types.Func); !ok || d.FullName() != fn.FullName() {
				t.Errorf("%s: drawn %v, full name %q", fn.FullName(), drawn, drawn.(*types.Func).FullName())
			}
		}
		if got, want := sk.visibleBeyond(), exportedFrom(obj, types.NewPackage("example.com/importer", "importer")); got != want {
			t.Errorf("%s: visible beyond a direct importer: %v, the checker's filter says %v", obj, got, want)
		}
		if got, want := exportedFrom(drawn, pkg), exportedFrom(obj, pkg); got != want {
			t.Errorf("%s: drawn object passes the checker's filter: %v, the object: %v", obj, got, want)
		}
	}
}
