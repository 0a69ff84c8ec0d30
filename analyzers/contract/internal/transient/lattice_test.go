package transient

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
)

// latticeUniverse is a small world of variables, tests and origins from
// which random states are drawn.
type latticeUniverse struct {
	errs, delays, carriers, bools []*types.Var
	followed                      *types.Var
	origins                       []ast.Node
	producers                     []*ast.CallExpr
	tests                         []*errTest
	names                         map[any]string
}

func newLatticeUniverse() *latticeUniverse {
	u := &latticeUniverse{names: make(map[any]string)}
	v := func(name string, t types.Type) *types.Var {
		x := types.NewVar(token.NoPos, nil, name, t)
		u.names[x] = name
		return x
	}
	errT := types.Universe.Lookup("error").Type()
	u.errs = []*types.Var{v("err", errT), v("err2", errT), nil}
	u.delays = []*types.Var{v("d", types.Typ[types.Int64]), v("d2", types.Typ[types.Int64])}
	u.carriers = []*types.Var{v("rd", errT)}
	u.bools = []*types.Var{v("ok", types.Typ[types.Bool])}
	u.followed = v("act", types.Typ[types.Int])
	for i := range 2 {
		o := &ast.Ident{Name: fmt.Sprint("o", i)}
		c := &ast.CallExpr{Fun: &ast.Ident{Name: fmt.Sprint("p", i)}}
		u.origins = append(u.origins, o)
		u.producers = append(u.producers, c)
		u.names[o], u.names[c] = o.Name, fmt.Sprint("p", i)
		t := &errTest{err: u.errs[i], ifTrue: effTransient, ifFalse: effFailed, origin: o}
		u.tests = append(u.tests, t)
		u.names[t] = fmt.Sprint("t", i)
	}
	return u
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// state draws a random state of the kind the transfer functions make:
// delay, carrier and origin only on transient facts, normalized.
func (u *latticeUniverse) state(r *rand.Rand, depth int) *flowState {
	s := newFlowState()
	for _, e := range u.errs {
		if r.IntN(3) == 0 {
			continue
		}
		var f errFacts
		f.transient = r.IntN(2) == 0
		if f.transient {
			f.nonNil = true
			if r.IntN(2) == 0 {
				f.delay = pick(r, u.delays)
			}
			if r.IntN(3) == 0 {
				f.carrier = pick(r, u.carriers)
			}
			if r.IntN(2) == 0 {
				f.tOrigin = pick(r, u.origins)
			}
		} else if r.IntN(2) == 0 {
			f.producer, f.nonNil = true, true
			if r.IntN(2) == 0 {
				f.pOrigin = pick(r, u.producers)
			}
		}
		f.nonNil = f.nonNil || r.IntN(2) == 0
		f.isNil = !f.nonNil && r.IntN(3) == 0
		f.zeroDelay = r.IntN(4) == 0
		f.noIntent = !f.transient && r.IntN(4) == 0
		f.permanent = !f.transient && r.IntN(4) == 0
		if f.permanent && r.IntN(2) == 0 {
			f.nOrigin = pick(r, u.origins)
		}
		f.excluded = r.IntN(3) == 0
		f.classified = r.IntN(3) == 0
		f.identified = r.IntN(4) == 0
		if f != (errFacts{}) {
			s.errs[e] = f
		}
	}
	for _, b := range u.bools {
		if r.IntN(2) == 0 {
			s.tests[b] = pick(r, u.tests)
		}
		if r.IntN(2) == 0 {
			for _, d := range u.delays {
				if r.IntN(2) == 0 {
					s.pending[b] = append(s.pending[b], d)
				}
			}
		}
	}
	for _, z := range append(append([]*types.Var{u.errs[0]}, u.delays...), u.carriers...) {
		if r.IntN(3) == 0 {
			s.zero[z] = true
		}
	}
	if depth == 0 && r.IntN(3) > 0 {
		f := &valFacts{when: make(map[string]*flowState)}
		switch r.IntN(4) {
		case 0:
			f.possible = map[string]bool{"a": true}
		case 1:
			f.possible = map[string]bool{"b": true}
		case 2:
			f.possible = map[string]bool{"a": true, "c": true}
		}
		for _, k := range []string{"a", "b", "c"} {
			if r.IntN(2) == 0 {
				if snap := u.state(r, depth+1).snapshot(); snap != nil {
					f.when[k] = snap
				}
			}
		}
		s.vals[u.followed] = f
	}
	s.normalize()
	return s
}

func (u *latticeUniverse) format(s *flowState) string {
	if s == nil {
		return "⊥"
	}
	var parts []string
	name := func(x any) string {
		if n, ok := u.names[x]; ok {
			return n
		}
		return fmt.Sprint(x)
	}
	for k, f := range s.errs {
		parts = append(parts, fmt.Sprintf("%s:%+v(d=%s c=%s o=%s p=%s)", name(k), f, name(f.delay), name(f.carrier), name(f.tOrigin), name(f.pOrigin)))
	}
	for k, t := range s.tests {
		parts = append(parts, fmt.Sprintf("test %s=%s", name(k), name(t)))
	}
	for k := range s.zero {
		parts = append(parts, "zero "+name(k))
	}
	for k, zs := range s.pending {
		var n []string
		for _, z := range zs {
			n = append(n, name(z))
		}
		parts = append(parts, fmt.Sprintf("pending %s=%v", name(k), n))
	}
	for k, v := range s.vals {
		parts = append(parts, fmt.Sprintf("vals %s: possible=%v", name(k), v.possible))
		for c, snap := range v.when {
			parts = append(parts, fmt.Sprintf("  when %s: {%s}", c, u.format(snap)))
		}
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, "; ") + "}"
}

// TestPathLatticeLaws checks the semilattice laws of the transient-path
// analysis over generated states, and that its equality agrees with the
// join order: the solver's fixpoint is the solution only if they hold.
func TestPathLatticeLaws(t *testing.T) {
	u := newLatticeUniverse()
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 42))
		states := []*flowState{newFlowState()}
		for range 18 {
			states = append(states, u.state(r, 0))
		}
		if err := dataflow.Laws[*flowState](pathLattice{}, states, u.format); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkOrder(t, fmt.Sprint("seed ", seed), pathLattice{}, states, u.format)
	}
}
