package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestWalkerAgreesWithInspect builds the index of every package of a part
// of the standard library and of this repository's testdata twice, with
// the walker and with the ast.Inspect walk it replaced (referenceWalk),
// test functions skipped, and requires the same index: the same nodes in
// the same order, the same containers, bodies, declarations and names.
func TestWalkerAgreesWithInspect(t *testing.T) {
	var dirs []string
	for _, pkg := range []string{"go/ast", "go/types", "net/http", "encoding/json", "text/template", "runtime", "reflect", "os", "sync", "go/parser"} {
		dirs = append(dirs, filepath.Join(runtime.GOROOT(), "src", pkg))
	}
	root := filepath.Join("..", "..", "..", "..", "testdata", "src")
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	files := 0
	for _, dir := range dirs {
		fset := token.NewFileSet()
		var fs []*ast.File
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, name := range names {
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
			if f != nil {
				fs = append(fs, f) // files with syntax errors too: the walk must agree on Bad nodes
			}
			_ = err
		}
		if len(fs) == 0 {
			continue
		}
		files += len(fs)
		skipped := make(map[*ast.FuncDecl]bool)
		for _, f := range fs {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "Test") {
					skipped[fd] = true
				}
			}
		}
		got := NewIndex(fs, skipped)
		want := &Index{Returns: map[*ast.BlockStmt][]*ast.ReturnStmt{}, DeclOf: map[*ast.BlockStmt]*ast.FuncDecl{}, Names: map[string]bool{}}
		for _, f := range fs {
			want.referenceWalk(f, skipped)
		}
		compareIndexes(t, dir, got, want)
	}
	if files < 500 {
		t.Fatalf("walked %d files, want 500 or more", files)
	}
}

func compareIndexes(t *testing.T, dir string, got, want *Index) {
	t.Helper()
	if !slices.Equal(got.Sites, want.Sites) {
		t.Errorf("%s: Sites differ (%d, want %d)", dir, len(got.Sites), len(want.Sites))
	}
	if !slices.Equal(got.Flow, want.Flow) {
		t.Errorf("%s: Flow differs (%d, want %d)", dir, len(got.Flow), len(want.Flow))
	}
	if !slices.Equal(got.Strings, want.Strings) || !slices.Equal(got.Lits, want.Lits) ||
		!slices.Equal(got.FuncTypes, want.FuncTypes) || !slices.Equal(got.SelectorIndexes, want.SelectorIndexes) {
		t.Errorf("%s: Strings, Lits, FuncTypes or SelectorIndexes differ", dir)
	}
	if len(got.Returns) != len(want.Returns) || len(got.DeclOf) != len(want.DeclOf) || len(got.Names) != len(want.Names) || len(got.Deferred) != len(want.Deferred) {
		t.Errorf("%s: map sizes differ: Returns %d/%d DeclOf %d/%d Names %d/%d Deferred %d/%d", dir,
			len(got.Returns), len(want.Returns), len(got.DeclOf), len(want.DeclOf), len(got.Names), len(want.Names), len(got.Deferred), len(want.Deferred))
		return
	}
	for b, rs := range want.Returns {
		if g, ok := got.Returns[b]; !ok || !slices.Equal(g, rs) {
			t.Errorf("%s: Returns of the body at %d differ", dir, b.Pos())
		}
	}
	for b, d := range want.DeclOf {
		if got.DeclOf[b] != d {
			t.Errorf("%s: DeclOf of the body at %d differs", dir, b.Pos())
		}
	}
	for b, d := range want.Deferred {
		if got.Deferred[b] != d {
			t.Errorf("%s: Deferred of the body at %d differs", dir, b.Pos())
		}
	}
	for n := range want.Names {
		if !got.Names[n] {
			t.Errorf("%s: name %s missing", dir, n)
		}
	}
}

// referenceWalk is the walk NewIndex made with ast.Inspect before its
// walker: TestWalkerAgreesWithInspect holds the walker to it.
func (s *Index) referenceWalk(f *ast.File, skipped map[*ast.FuncDecl]bool) {
	var stack []ast.Node
	var bodies []*ast.BlockStmt
	var decl *ast.FuncDecl
	at := func(n ast.Node) Site {
		s := Site{Node: n}
		if len(bodies) > 0 {
			s.Body = bodies[len(bodies)-1]
		}
		return s
	}
	enter := func(body *ast.BlockStmt) {
		bodies = append(bodies, body)
		if body != nil {
			s.Returns[body] = nil // a body without returns has none
			if decl != nil {
				s.DeclOf[body] = decl
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			switch stack[len(stack)-1].(type) {
			case *ast.FuncDecl:
				bodies, decl = bodies[:len(bodies)-1], nil
			case *ast.FuncLit:
				bodies = bodies[:len(bodies)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.Ident:
			s.Names[n.Name] = true
			return false // no children, and nothing to pop
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				s.Strings = append(s.Strings, n)
			}
			return false
		case *ast.FuncDecl:
			if skipped[n] {
				return false // out of scope, whole
			}
			decl = n
			enter(n.Body)
		case *ast.FuncLit:
			s.Lits = append(s.Lits, n)
			enter(n.Body)
		case *ast.FuncType:
			s.FuncTypes = append(s.FuncTypes, n)
		case *ast.IndexExpr:
			if _, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok {
				s.SelectorIndexes = append(s.SelectorIndexes, n)
			}
		case *ast.CallExpr:
			s.Sites = append(s.Sites, at(n))
		case *ast.KeyValueExpr:
			if mayNameFunc(n) {
				s.Sites = append(s.Sites, at(n))
			}
		case *ast.ReturnStmt:
			st := at(n)
			s.Sites = append(s.Sites, st)
			if st.Body != nil {
				s.Returns[st.Body] = append(s.Returns[st.Body], n)
			}
		case *ast.ExprStmt:
			if mayStore(n) {
				s.Flow = append(s.Flow, FlowNode{n, nil})
			}
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok && len(bodies) > 0 {
				if s.Deferred == nil {
					s.Deferred = make(map[*ast.BlockStmt]*ast.BlockStmt)
				}
				s.Deferred[lit.Body] = bodies[len(bodies)-1]
			}
		case *ast.AssignStmt, *ast.ValueSpec, *ast.RangeStmt:
			s.Flow = append(s.Flow, FlowNode{n, nearestContainer(stack, f)})
		}
		stack = append(stack, n)
		return true
	})
}

// nearestContainer returns the innermost node of stack that scopes the
// statements under it.
func nearestContainer(stack []ast.Node, file *ast.File) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause,
			*ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt,
			*ast.TypeSwitchStmt, *ast.SelectStmt:
			return stack[i]
		}
	}
	return file
}
