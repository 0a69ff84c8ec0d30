package contract_test

import (
	"go/ast"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestLayout keeps the analyzers' layout as the model split left it: no
// file of analyzers/ over 450 lines, analyzers/contract itself within
// 1,200 lines, and no reference cycle between the files of a stage
// package (analyzers/contract/internal/...) or of the contract package
// when they have more than three files. A file refers to another when it
// uses an identifier the other declares; a cycle is a strongly connected
// component of more than one file.
func TestLayout(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: ".."}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("%d packages under analyzers/: did the load work?", len(pkgs))
	}
	for _, p := range pkgs {
		files := make(map[string]bool)
		lines := 0
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if strings.HasSuffix(name, "_test.go") || strings.Contains(name, "testdata") {
				continue
			}
			files[filepath.Base(name)] = true
			n := p.Fset.File(f.Pos()).LineCount()
			lines += n
			if n > 450 {
				t.Errorf("%s: %d lines, more than 450", name, n)
			}
		}
		if strings.HasSuffix(p.PkgPath, "/analyzers/contract") && lines > 1200 {
			t.Errorf("%s: %d lines, more than 1,200", p.PkgPath, lines)
		}
		stage := strings.Contains(p.PkgPath, "/analyzers/contract/internal/") || strings.HasSuffix(p.PkgPath, "/analyzers/contract")
		if !stage || len(files) <= 3 {
			continue
		}
		for _, c := range fileCycles(p) {
			t.Errorf("%s: its files %v refer to each other in a cycle", p.PkgPath, c)
		}
	}
}

// fileCycles returns the strongly connected components of more than one
// file of p's reference graph (test files left out).
func fileCycles(p *packages.Package) [][]string {
	edges := make(map[string]map[string]bool)
	var names []string
	for _, f := range p.Syntax {
		from := filepath.Base(p.Fset.File(f.Pos()).Name())
		if strings.HasSuffix(from, "_test.go") {
			continue
		}
		names = append(names, from)
		edges[from] = make(map[string]bool)
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			obj := p.TypesInfo.Uses[id]
			if obj == nil || obj.Pkg() != p.Types || !obj.Pos().IsValid() {
				return true
			}
			if to := filepath.Base(p.Fset.Position(obj.Pos()).Filename); to != from && !strings.HasSuffix(to, "_test.go") {
				edges[from][to] = true
			}
			return true
		})
	}
	slices.Sort(names)
	// Tarjan's algorithm.
	index, low, onStack := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var out [][]string
	var strong func(v string)
	strong = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		for w := range edges[v] {
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack, onStack[w] = stack[:len(stack)-1], false
				c = append(c, w)
				if w == v {
					break
				}
			}
			if len(c) > 1 {
				slices.Sort(c)
				out = append(out, c)
			}
		}
	}
	for _, v := range names {
		if _, seen := index[v]; !seen {
			strong(v)
		}
	}
	return out
}
