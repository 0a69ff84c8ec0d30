package transient

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// This file follows local variables that record a decision as a constant:
// the action variable of a handler that classifies first and acks later.
//
//	act := ack
//	if d, ok := RetryDelay(err); ok {
//		act, delay = retry, d
//	}
//	switch act {
//	case retry: // reached only where RetryDelay succeeded
//	}
//
// When a variable is assigned a constant, the state of the error facts at
// that point (a snapshot) is remembered for that value; a join keeps, for
// each value, what holds on every path where the variable can hold it (a
// path that assigned another constant cannot, and says nothing). A test
// v == C, a case C of switch v, or if v for a bool, brings back the
// snapshot of C: only its classified transient errors and known-zero
// delays are used. Only variables declared in the body, never assigned in a
// function literal and never addressed, are followed.

// valFacts is what is known about one followed variable.
//
// As a lattice, each constant key is in one of three states: no path gets
// there with v holding it (identity of the join), a snapshot (joined), or
// nothing known (absorbing); the join is the pointwise one.
type valFacts struct {
	// possible holds the keys of the constants v may hold, nil when v may
	// hold any value (it was not assigned a constant on some path).
	possible map[string]bool
	when     map[string]*flowState // per constant key: the facts on every path where v holds it
}

func (v *valFacts) clone() *valFacts {
	return &valFacts{possible: maps.Clone(v.possible), when: maps.Clone(v.when)} // snapshots are never changed in place
}

func (v *valFacts) equal(o *valFacts) bool {
	if o == nil || (v.possible == nil) != (o.possible == nil) || !maps.Equal(v.possible, o.possible) || len(v.when) != len(o.when) {
		return false
	}
	for k, s := range v.when {
		t, ok := o.when[k]
		if !ok || !s.equal(t) {
			return false
		}
	}
	return true
}

// side returns the snapshot for key k on one side of a join: top when the
// variable is known to hold another constant there (no path of that side
// has v == k), nil with top false when nothing is known.
func (v *valFacts) side(k string) (snap *flowState, top bool) {
	if v == nil {
		return nil, false
	}
	if v.possible != nil && !v.possible[k] {
		return nil, true
	}
	return v.when[k], false
}

// joinVals sets r.vals to what holds on paths through a or b.
func joinVals(r, a, b *flowState) {
	for v, fa := range a.vals {
		fb := b.vals[v]
		if fb == nil {
			continue // not followed on b's paths yet: nothing holds on all
		}
		out := &valFacts{when: make(map[string]*flowState)}
		if fa.possible != nil && fb.possible != nil {
			out.possible = maps.Clone(fa.possible)
			maps.Copy(out.possible, fb.possible)
		}
		for _, f := range []*valFacts{fa, fb} {
			for k := range f.when {
				if _, done := out.when[k]; done {
					continue
				}
				sa, topA := fa.side(k)
				sb, topB := fb.side(k)
				switch {
				case sa != nil && sb != nil:
					out.when[k] = join(sa, sb)
				case sa != nil && topB:
					out.when[k] = sa
				case sb != nil && topA:
					out.when[k] = sb
				}
			}
		}
		if out.possible != nil || len(out.when) > 0 {
			r.vals[v] = out
		}
	}
}

// killInVals forgets v in every snapshot, after v is assigned.
func (s *flowState) killInVals(v *types.Var) {
	for _, f := range s.vals {
		for k, snap := range f.when {
			if snap.mentions(v) {
				c := snap.clone()
				c.kill(v)
				for e, ef := range c.errs {
					if ef.delay == v {
						ef.delay = nil
					}
					if ef.carrier == v {
						ef.carrier = nil
					}
					c.errs[e] = ef
				}
				f.when[k] = c
			}
		}
	}
}

// mentions reports whether a snapshot holds facts about v.
func (s *flowState) mentions(v *types.Var) bool {
	if _, ok := s.errs[v]; ok || s.zero[v] {
		return true
	}
	for _, f := range s.errs {
		if f.delay == v || f.carrier == v {
			return true
		}
	}
	return false
}

// snapshot returns the facts a constant assignment remembers: the error
// facts and known-zero delays of st, when some error is transient.
func (s *flowState) snapshot() *flowState {
	var c *flowState
	for k, f := range s.errs {
		if k == nil || !f.transient {
			continue
		}
		if c == nil {
			c = newFlowState()
		}
		c.errs[k] = f
	}
	if c != nil {
		maps.Copy(c.zero, s.zero)
	}
	return c
}

// copyDelay records in the snapshots that w now holds x's value, x a
// delay: w replaces x as the delay of the errors x was the delay of.
func (s *flowState) copyDelay(w, x *types.Var) {
	for _, f := range s.vals {
		for k, snap := range f.when {
			if !snap.mentions(x) {
				continue
			}
			c := snap.clone()
			for e, ef := range c.errs {
				if ef.delay == x {
					ef.delay = w
					c.errs[e] = ef
				}
			}
			if c.zero[x] {
				c.zero[w] = true
			}
			f.when[k] = c
		}
	}
}

// assume refines s by v holding the constant of key k. When v is known to
// hold another constant, no path gets there: s is marked infeasible.
func (s *flowState) assume(v *types.Var, k string) {
	snap, top := s.vals[v].side(k)
	if top {
		s.infeasible = true
		return
	}
	if snap == nil {
		return
	}
	for e, sf := range snap.errs {
		if e == nil || !sf.transient {
			continue
		}
		f := s.errs[e]
		if !f.transient {
			f.transient, f.nonNil = true, true
			f.delay, f.carrier, f.tOrigin = sf.delay, sf.carrier, sf.tOrigin
		}
		f.zeroDelay = f.zeroDelay || sf.zeroDelay
		if f.zeroDelay {
			s.zero[e] = true
		}
		s.errs[e] = f
	}
	for z := range snap.zero {
		s.zero[z] = true
	}
}

// assignConsts records, after lhs = rhs was applied to st, the constants
// assigned to followed variables and the delays copied into variables.
func (p *pathAnalysis) assignConsts(st *flowState, lhs, rhs []ast.Expr) {
	for i, l := range lhs {
		v := p.varOf(l)
		if v == nil {
			continue
		}
		if k := p.constKey(rhs[i]); k != "" && p.followed(v) {
			p.setConst(st, v, k)
		}
	}
	for i, l := range lhs {
		w := p.varOf(l)
		if w == nil || !gotypes.IsDuration(w.Type()) {
			continue
		}
		if x := p.varOf(rhs[i]); x != nil && x != w && gotypes.IsDuration(x.Type()) && !p.assigned(lhs, x) {
			st.copyDelay(w, x)
		}
	}
}

// assigned reports whether x is among the variables lhs assigns.
func (p *pathAnalysis) assigned(lhs []ast.Expr, x *types.Var) bool {
	for _, l := range lhs {
		if p.varOf(l) == x {
			return true
		}
	}
	return false
}

// valueTest returns the followed variable and constant key of v == C or
// C == v.
func (p *pathAnalysis) valueTest(x, y ast.Expr) (*types.Var, string) {
	for _, pair := range [][2]ast.Expr{{x, y}, {y, x}} {
		if v := p.varOf(pair[0]); v != nil && p.followed(v) {
			if k := p.constKey(pair[1]); k != "" {
				return v, k
			}
		}
	}
	return nil, ""
}

// constKey returns a key for the value of a constant expression of a
// boolean, integer or string type, or "".
func (p *pathAnalysis) constKey(e ast.Expr) string {
	tv, ok := p.m.info.Types[e]
	if !ok || tv.Value == nil {
		return ""
	}
	switch tv.Value.Kind() {
	case constant.Bool, constant.Int, constant.String:
		return tv.Value.Kind().String() + ":" + tv.Value.ExactString()
	}
	return ""
}

// boolKey is the constKey of a boolean constant.
func boolKey(b bool) string {
	return constant.Bool.String() + ":" + constant.MakeBool(b).ExactString()
}

// followed reports whether v is a variable whose constant values are
// followed: a local of a boolean, integer or string type, declared in the
// body, never assigned in a function literal nor addressed.
func (p *pathAnalysis) followed(v *types.Var) bool {
	if v == nil || v.IsField() || p.body == nil || v.Pos() < p.body.Pos() || v.Pos() >= p.body.End() {
		return false
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsBoolean|types.IsInteger|types.IsString) == 0 || gotypes.IsDuration(v.Type()) {
		return false // delays are followed by the zero facts
	}
	if p.unfollowed == nil {
		p.unfollowed = p.escaping()
	}
	return !p.unfollowed[v]
}

// escaping returns the body's variables that are addressed (&v, a pointer
// method called on v) or assigned inside a function literal.
func (p *pathAnalysis) escaping() map[*types.Var]bool {
	info := p.m.info
	out := make(map[*types.Var]bool)
	var inLit func(n ast.Node) bool
	inLit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := p.varOf(l); v != nil {
					out[v] = true
				}
			}
		case *ast.IncDecStmt:
			if v := p.varOf(n.X); v != nil {
				out[v] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := p.varOf(e); v != nil {
					out[v] = true
				}
			}
		}
		return true
	}
	ast.Inspect(p.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n.Body, inLit)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := p.varOf(n.X); v != nil {
					out[v] = true
				}
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[n]; ok && sel.Kind() == types.MethodVal {
				if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
						if v := p.varOf(n.X); v != nil {
							out[v] = true
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// assignZero records var v T: v holds T's zero value.
func (p *pathAnalysis) assignZero(st *flowState, v *types.Var) {
	if v == nil || !p.followed(v) {
		return
	}
	b, _ := v.Type().Underlying().(*types.Basic)
	var zero constant.Value
	switch {
	case b.Info()&types.IsBoolean != 0:
		zero = constant.MakeBool(false)
	case b.Info()&types.IsInteger != 0:
		zero = constant.MakeInt64(0)
	case b.Info()&types.IsString != 0:
		zero = constant.MakeString("")
	default:
		return
	}
	p.setConst(st, v, zero.Kind().String()+":"+zero.ExactString())
}

// setConst records that v holds the constant of key k, with the facts of
// st as its snapshot.
func (p *pathAnalysis) setConst(st *flowState, v *types.Var, k string) {
	f := &valFacts{possible: map[string]bool{k: true}, when: make(map[string]*flowState)}
	if snap := st.snapshot(); snap != nil {
		f.when[k] = snap
	}
	st.vals[v] = f
}
