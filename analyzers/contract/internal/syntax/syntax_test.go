package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// TestCallsByBody checks that the calls the syntax index groups by body
// are those InspectCalls finds, in its order, for every function body of
// the test corpus and the examples, and of a file of nested literals.
func TestCallsByBody(t *testing.T) {
	const nested = `package p
func f() {
	a(func() { b() }())
	defer func() { c(func() int { return d() }()) }()
	go func() { e(); func() { g() }() }()
	h := func() { notCalledOnTheSpot() }
	h()
	x()(y(), func() { z() })
}`
	fset := token.NewFileSet()
	files := []*ast.File{mustParse(t, fset, "nested.go", nested)}
	for _, root := range []string{"../../../../testdata", "../../../../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			if f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution); err == nil {
				files = append(files, f)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 50 {
		t.Fatalf("only %d files found: is the corpus where the test looks?", len(files))
	}
	bodies := 0
	for _, f := range files {
		byBody := NewIndex([]*ast.File{f}, nil).CallsByBody()
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.FuncDecl:
				body = n.Body
			case *ast.FuncLit:
				body = n.Body
			}
			if body == nil {
				return true
			}
			bodies++
			var want []*ast.CallExpr
			goast.InspectCalls(body, func(call *ast.CallExpr) bool {
				want = append(want, call)
				return true
			})
			if got := byBody[body]; !slices.Equal(got, want) {
				t.Errorf("%s: calls of the body: got %d, want %d in InspectCalls order", fset.Position(body.Pos()), len(got), len(want))
			}
			return true
		})
	}
	if got := len(NewIndex(files[:1], nil).CallsByBody()[files[0].Decls[0].(*ast.FuncDecl).Body]); got != 15 {
		t.Errorf("calls of the nested literals' function: got %d, want 15", got)
	}
	t.Logf("%d files, %d bodies", len(files), bodies)
}

func mustParse(t *testing.T, fset *token.FileSet, name, src string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestUnquote checks the shortcut against strconv.Unquote.
func TestUnquote(t *testing.T) {
	for _, lit := range []string{
		`"orders.dlq"`, `"a\"b"`, `"tab\there"`, `"\u00e9t\u00e9"`, "\"caf\xc3\xa9\"", "\"bad\xff\"",
		"`raw\\n`", "`with\r\ncr`", "``", `""`, `"`, "`", `"x'`, `'x'`, `"é"`, `"a"b"`, "\"a\nb\"", "`a`b`",
	} {
		want, wantErr := strconv.Unquote(lit)
		got, err := unquote(lit)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("unquote(%q) = %q, %v; strconv.Unquote: %q, %v", lit, got, err, want, wantErr)
		}
	}
}
