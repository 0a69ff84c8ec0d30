package dataflow_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
)

// blockCalling returns the block that holds the call of name.
func blockCalling(g *cfg.CFG, name string) *cfg.Block {
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			if es, ok := n.(*ast.ExprStmt); ok {
				if c, ok := es.X.(*ast.CallExpr); ok && c.Fun.(*ast.Ident).Name == name {
					return b
				}
			}
		}
	}
	return nil
}

func TestReach(t *testing.T) {
	g, _ := graphOf(t, `func f(items []int, c bool) {
	for range items {
		first()
		if c {
			second()
			continue
		}
		third()
	}
	last()
}`)
	r := dataflow.NewReach(g)
	at := func(name string) func(*cfg.Block) bool {
		target := blockCalling(g, name)
		return func(b *cfg.Block) bool { return b == target }
	}
	// second is after first in the same iteration: found, with a witness
	// from first's block to second's.
	w := r.After(blockCalling(g, "first"), at("second"))
	if len(w) < 2 || w[0] != blockCalling(g, "first") || w[len(w)-1] != blockCalling(g, "second") {
		t.Fatalf("witness first -> second = %v", w)
	}
	for i := 1; i < len(w); i++ {
		if r.IsBack(w[i-1], w[i]) {
			t.Errorf("the witness crosses a back edge")
		}
	}
	// first after second only through the loop's back edge: not reached.
	if w := r.After(blockCalling(g, "second"), at("first")); w != nil {
		t.Errorf("first reached after second across the back edge: %v", w)
	}
	// Leaving the loop goes through its head, after the back edge: what
	// follows the loop is not after its body.
	if w := r.After(blockCalling(g, "third"), at("last")); w != nil {
		t.Errorf("last reached after third across the back edge: %v", w)
	}
	if w := r.After(g.Blocks[0], at("last")); w == nil {
		t.Errorf("last not reached from the entry")
	}
}
