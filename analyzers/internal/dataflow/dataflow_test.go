package dataflow_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
)

// assigned is a may-analysis: the set of variable names assigned on some
// path. Bottom is the empty set, join the union.
type assigned struct{}

func (assigned) Bottom() map[string]bool { return map[string]bool{} }
func (assigned) Join(a, b map[string]bool) map[string]bool {
	r := maps.Clone(a)
	maps.Copy(r, b)
	return r
}
func (assigned) Equal(a, b map[string]bool) bool { return maps.Equal(a, b) }

func format(s map[string]bool) string {
	return fmt.Sprint(slices.Sorted(maps.Keys(s)))
}

func graphOf(t *testing.T, src string) (*cfg.CFG, *ast.FuncDecl) {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x\n"+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	fd := f.Decls[0].(*ast.FuncDecl)
	return cfg.New(fd.Body, func(*ast.CallExpr) bool { return true }), fd
}

func assignments(b *cfg.Block, in map[string]bool) map[string]bool {
	out := maps.Clone(in)
	for _, n := range b.Nodes {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				out[l.(*ast.Ident).Name] = true
			}
		}
	}
	return out
}

func TestForward(t *testing.T) {
	g, _ := graphOf(t, `func f(c bool) {
	x := 1
	if c {
		y := 2
		_ = y
	} else {
		for {
			z := 3
			_ = z
			if c { break }
		}
	}
	return
}`)
	r := dataflow.Forward(g, dataflow.Problem[map[string]bool]{
		Lattice: assigned{}, Entry: map[string]bool{}, Block: assignments,
	})
	if !r.Converged {
		t.Fatal("did not converge")
	}
	var exit *cfg.Block
	for _, b := range g.Blocks {
		if len(b.Nodes) > 0 {
			if _, ok := b.Nodes[len(b.Nodes)-1].(*ast.ReturnStmt); ok {
				exit = b
			}
		}
	}
	if got := format(r.In[exit.Index]); got != "[_ x y z]" {
		t.Errorf("at the return: %s, want [_ x y z]", got)
	}
}

// TestForwardGivesUp checks that a problem that never settles is reported
// as not converged.
func TestForwardGivesUp(t *testing.T) {
	g, _ := graphOf(t, `func f() { for { } }`)
	n := 0
	r := dataflow.Forward(g, dataflow.Problem[map[string]bool]{
		Lattice: assigned{}, Entry: map[string]bool{},
		Block: func(b *cfg.Block, in map[string]bool) map[string]bool {
			n++
			out := maps.Clone(in)
			out[fmt.Sprint(n)] = true // grows forever: not a finite lattice
			return out
		},
		MaxVisits: 5,
	})
	if r.Converged {
		t.Fatal("a problem that never settles converged")
	}
}

// TestInfeasibleEdge checks that an edge the problem rules out carries
// nothing.
func TestInfeasibleEdge(t *testing.T) {
	g, _ := graphOf(t, `func f(c bool) {
	if c {
		y := 1
		_ = y
	}
}`)
	r := dataflow.Forward(g, dataflow.Problem[map[string]bool]{
		Lattice: assigned{}, Entry: map[string]bool{}, Block: assignments,
		Edge: func(b *cfg.Block, i int, out map[string]bool) (map[string]bool, bool) {
			return out, i != 0 // the true side of every condition is infeasible
		},
	})
	for _, b := range g.Blocks {
		if b.Kind == cfg.KindIfThen && r.Reached[b.Index] {
			t.Errorf("the then block is reached through an infeasible edge")
		}
	}
}

func TestLaws(t *testing.T) {
	var states []map[string]bool
	for _, s := range []string{"", "a", "b", "a b", "b c", "a b c"} {
		m := map[string]bool{}
		for _, k := range strings.Fields(s) {
			m[k] = true
		}
		states = append(states, m)
	}
	if err := dataflow.Laws[map[string]bool](assigned{}, states, format); err != nil {
		t.Fatal(err)
	}
	// A join that keeps its left operand is not commutative: Laws says so.
	if err := dataflow.Laws[map[string]bool](leftJoin{}, states, format); err == nil || !strings.Contains(err.Error(), "commutativity") {
		t.Fatalf("Laws(leftJoin) = %v, want a commutativity violation", err)
	}
}

type leftJoin struct{ assigned }

func (leftJoin) Join(a, b map[string]bool) map[string]bool {
	if len(a) == 0 {
		return maps.Clone(b)
	}
	return maps.Clone(a)
}
