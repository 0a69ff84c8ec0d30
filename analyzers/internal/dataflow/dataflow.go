// Package dataflow solves forward dataflow problems over go/cfg graphs,
// and checks that a problem's states form a join-semilattice.
//
// A problem names its lattice: the states, their join (what holds on the
// paths through either of two points), their equality, and the least state
// (no path reaches the point). The solver is a worklist fixpoint; it
// terminates when the lattice has finite height and the transfer functions
// are monotone. It still bounds its work: a problem that does not settle
// within the bound is reported as not converged, never as a solution.
package dataflow

import (
	"fmt"

	"golang.org/x/tools/go/cfg"
)

// Lattice is a join-semilattice with a least element. Its laws, which
// Laws checks over sample states:
//
//	Join(Bottom(), a) == a                       (identity)
//	Join(a, b) == Join(b, a)                     (commutativity)
//	Join(Join(a, b), c) == Join(a, Join(b, c))   (associativity)
//	Join(a, a) == a                              (idempotence)
//
// where == is Equal. Join must not modify its operands.
type Lattice[S any] interface {
	Bottom() S
	Join(a, b S) S
	Equal(a, b S) bool
}

// Problem is a forward dataflow problem over one CFG.
type Problem[S any] struct {
	Lattice Lattice[S]
	// Entry is the state at the start of the function.
	Entry S
	// Block returns the state after block b's nodes, given the state at
	// its start. It must not modify in.
	Block func(b *cfg.Block, in S) S
	// Edge returns the state on the edge from b to b.Succs[i], given the
	// state after b's nodes, and false when no path takes the edge. It
	// must not modify out. Nil means every edge carries out unchanged.
	Edge func(b *cfg.Block, i int, out S) (S, bool)
	// MaxVisits bounds the visits of each block (default 64).
	MaxVisits int
}

// Result is the solution of a problem: the state at the start of each
// block, by block index.
type Result[S any] struct {
	In []S
	// Reached says which blocks some path reaches; In of the others is
	// Bottom.
	Reached []bool
	// Converged is false when the solver gave up: In means nothing then.
	Converged bool
}

// Forward solves p over g.
func Forward[S any](g *cfg.CFG, p Problem[S]) Result[S] {
	n := len(g.Blocks)
	r := Result[S]{In: make([]S, n), Reached: make([]bool, n)}
	for i := range r.In {
		r.In[i] = p.Lattice.Bottom()
	}
	if n == 0 {
		r.Converged = true
		return r
	}
	maxVisits := p.MaxVisits
	if maxVisits <= 0 {
		maxVisits = 64
	}
	r.In[0], r.Reached[0] = p.Entry, true
	work := []*cfg.Block{g.Blocks[0]}
	queued := make([]bool, n)
	queued[0] = true
	budget := maxVisits * n
	for len(work) > 0 {
		if budget--; budget < 0 {
			return r
		}
		b := work[0]
		work = work[1:]
		queued[b.Index] = false
		out := p.Block(b, r.In[b.Index])
		for i, succ := range b.Succs {
			st, feasible := out, true
			if p.Edge != nil {
				st, feasible = p.Edge(b, i, out)
			}
			if !feasible {
				continue
			}
			if r.Reached[succ.Index] {
				old := r.In[succ.Index]
				st = p.Lattice.Join(old, st)
				if p.Lattice.Equal(st, old) {
					continue
				}
			}
			r.In[succ.Index], r.Reached[succ.Index] = st, true
			if !queued[succ.Index] {
				queued[succ.Index] = true
				work = append(work, succ)
			}
		}
	}
	r.Converged = true
	return r
}

// Laws checks the semilattice laws of l over every pair and triple of
// states (so keep the sample small: a few dozen states), and returns the
// first violation.
func Laws[S any](l Lattice[S], states []S, format func(S) string) error {
	bottom := l.Bottom()
	for i, a := range states {
		if !l.Equal(l.Join(bottom, a), a) || !l.Equal(l.Join(a, bottom), a) {
			return fmt.Errorf("identity: Join(Bottom, a) != a for a = %s", format(a))
		}
		if !l.Equal(l.Join(a, a), a) {
			return fmt.Errorf("idempotence: Join(a, a) = %s, a = %s", format(l.Join(a, a)), format(a))
		}
		for j, b := range states {
			ab, ba := l.Join(a, b), l.Join(b, a)
			if !l.Equal(ab, ba) {
				return fmt.Errorf("commutativity (states %d, %d): Join(a, b) = %s, Join(b, a) = %s", i, j, format(ab), format(ba))
			}
			for k, c := range states {
				left, right := l.Join(ab, c), l.Join(a, l.Join(b, c))
				if !l.Equal(left, right) {
					return fmt.Errorf("associativity (states %d, %d, %d): (a+b)+c = %s, a+(b+c) = %s", i, j, k, format(left), format(right))
				}
			}
		}
	}
	return nil
}
