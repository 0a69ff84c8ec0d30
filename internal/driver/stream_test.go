package driver

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

type markFact struct{}

func (*markFact) AFact() {}

// TestInheritFiltersAsTheChecker: a package sees the facts of its direct
// imports as go/analysis/checker lets them through (exportedFrom): on
// their exported functions and every method, not on unexported
// functions; one import further, only on methods (and fields, types,
// constants). A silent package passes on what it sees.
func TestInheritFiltersAsTheChecker(t *testing.T) {
	const src = `package a
func F() {}
func g() {}
type t struct{}
func (t) M() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := (&types.Config{Importer: importer.Default()}).Check("a", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, _, _ := types.LookupFieldOrMethod(a.Scope().Lookup("t").Type(), false, a, "M")
	objs := map[string]types.Object{"F": a.Scope().Lookup("F"), "g": a.Scope().Lookup("g"), "M": m}

	an := &analysis.Analyzer{Name: "marks", FactTypes: []analysis.Fact{new(markFact)}}
	pa := &packages.Package{ID: "a", PkgPath: "a", Types: a}
	pb := &packages.Package{ID: "b", PkgPath: "b", Types: types.NewPackage("b", "b"), Imports: map[string]*packages.Package{"a": pa}}
	pc := &packages.Package{ID: "c", PkgPath: "c", Types: types.NewPackage("c", "c"), Imports: map[string]*packages.Package{"b": pb}}
	s := &streamer{depAnalyzers: []*analysis.Analyzer{an}, states: make(map[*packages.Package]*pkgState)}
	own := &inheritedFacts{objects: make(map[objectFactKey]analysis.Fact), packages: make(map[packageFactKey]analysis.Fact)}
	for _, obj := range objs {
		own.objects[objectFactKey{obj, reflect.TypeOf(new(markFact))}] = new(markFact)
	}
	s.states[pa] = &pkgState{facts: map[string]*inheritedFacts{an.Name: own}}

	seen := func(facts map[string]*inheritedFacts) []string {
		var out []string
		for k := range facts[an.Name].objects {
			out = append(out, k.obj.Name())
		}
		slices.Sort(out)
		return out
	}
	inB := s.inherit(pb)
	if got, want := seen(inB), []string{"F", "M"}; !slices.Equal(got, want) {
		t.Errorf("the importer sees facts on %v, want %v", got, want)
	}
	s.states[pb] = &pkgState{facts: inB}
	if got, want := seen(s.inherit(pc)), []string{"M"}; !slices.Equal(got, want) {
		t.Errorf("one import further, facts on %v, want %v", got, want)
	}
}
