package driver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestSkeletonSum: a package's skeleton is the same after edits no
// importer can see (within a line of a body, a comment that moves
// nothing) and differs after those it can (a declaration's text or
// position, a body's extent).
func TestSkeletonSum(t *testing.T) {
	const base = "package p\n\nfunc F(a int) int {\n\treturn a\n}\n\nvar V = 1\n"
	dir := t.TempDir()
	sum := func(src string) string {
		t.Helper()
		name := filepath.Join(dir, "p.go")
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution) // as the drivers parse a root
		if err != nil {
			t.Fatal(err)
		}
		s := skeletonSum(&packages.Package{Fset: fset, Syntax: []*ast.File{f}})
		if s == "" {
			t.Fatalf("no skeleton of\n%s", src)
		}
		return s
	}
	want := sum(base)
	for _, c := range []struct {
		name, src string
		same      bool
	}{
		{"a body edited within a line", strings.Replace(base, "return a", "return a + 1", 1), true},
		{"a comment appended", base + "\n// edited\n", true},
		{"a comment in a body", strings.Replace(base, "return a", "return a // a", 1), true},
		{"a parameter's type", strings.Replace(base, "F(a int)", "F(a any)", 1), false},
		{"a variable's value", strings.Replace(base, "V = 1", "V = 2", 1), false},
		{"a body a line longer", strings.Replace(base, "return a", "a++\n\treturn a", 1), false},
		{"a comment on top", "// Package p.\n" + base, false},
		{"a comment after a declaration", strings.Replace(base, "V = 1", "V = 1 // one", 1), true},
		{"a comment before a declaration on its line", strings.Replace(base, "var V = 1", "/* v */ var V = 1", 1), false},
		{"a //line directive", strings.Replace(base, "var V", "//line other.go:10\nvar V", 1), false},
	} {
		if got := sum(c.src); (got == want) != c.same {
			t.Errorf("%s: skeleton the same: %v, want %v", c.name, got == want, c.same)
		}
	}
}

// TestIfaceSum: a package's interface sum changes with its skeleton, its
// facts and its imports' stamps.
func TestIfaceSum(t *testing.T) {
	c := &pkgCache{}
	p := &packages.Package{ID: "p", PkgPath: "p", Name: "p", Imports: map[string]*packages.Package{"q": {ID: "q"}}}
	sum := func(skeleton string, facts byte, q string) string {
		t.Helper()
		s := c.ifaceSum(p, func(string) pkgKey { return pkgKey{sum: q, stable: true} }, skeleton, &factEntry{ID: "p", Facts: []byte{facts}})
		if s == "" {
			t.Fatal("no interface sum")
		}
		return s
	}
	seen := map[string]string{}
	for name, s := range map[string]string{
		"base":             sum("skeleton", 1, "q1"),
		"another skeleton": sum("skeleton2", 1, "q1"),
		"other facts":      sum("skeleton", 2, "q1"),
		"q's stamp":        sum("skeleton", 1, "q2"),
	} {
		if other, ok := seen[s]; ok {
			t.Errorf("%s and %s have the same interface sum", name, other)
		}
		seen[s] = name
	}
	if sum("skeleton", 1, "q1") != sum("skeleton", 1, "q1") {
		t.Error("the same inputs give different sums")
	}
	stamp := func(string) pkgKey { return pkgKey{sum: "q1"} }
	if c.ifaceSum(p, stamp, "", &factEntry{ID: "p"}) != "" || c.ifaceSum(p, stamp, "skeleton", nil) != "" {
		t.Error("an interface sum without a skeleton or facts")
	}
}
