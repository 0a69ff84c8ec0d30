package suite_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedWorkStaysShared reads the analyzers' sources: the CFGs come
// from the cfgs pass only (no other package calls cfg.New), and no
// analyzer locks anything (results are computed whole in Run and only read
// afterwards, so no sync.Mutex is needed).
func TestSharedWorkStaysShared(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		inCFGs := filepath.Base(filepath.Dir(path)) == "cfgs"
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case x.Name == "cfg" && sel.Sel.Name == "New" && !inCFGs:
				t.Errorf("%s: cfg.New outside the cfgs pass: use the shared CFG", fset.Position(sel.Pos()))
			case x.Name == "sync" && strings.HasSuffix(sel.Sel.Name, "Mutex"):
				t.Errorf("%s: sync.%s in an analyzer: compute results in Run instead", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("read only %d files", files)
	}
}
