package transient

import (
	"go/ast"
	"go/constant"
	"go/types"
	"maps"
)

// This file holds the abstract state of the transient-path analysis: what is
// known about the error variables of a function on the paths that reach a
// point. Must-facts hold on every path (joined by intersection); may-facts
// on some path (joined by union).

const (
	effNone       effect = iota
	effTransient         // a retry classification succeeded
	effFailed            // a retry classification failed: no retry intent
	effIdentified        // the error was identified as something else
)

func newFlowState() *flowState {
	return &flowState{
		errs:    make(varMap[errFacts]),
		tests:   make(varMap[*errTest]),
		zero:    make(varMap[must]),
		pending: make(varMap[mustSet]),
		vals:    make(varMap[*valFacts]),
	}
}

func (s *flowState) clone() *flowState {
	return &flowState{errs: s.errs.clone(), tests: s.tests.clone(), zero: s.zero.clone(), pending: s.pending.clone(), vals: s.vals.clone()}
}

// pathLattice is the lattice of the transient-path analysis: flowStates,
// with nil for "no path reaches the point". Its laws are tested over
// generated states (lattice_test.go).
type pathLattice struct{}

func (pathLattice) Bottom() *flowState { return nil }

func (pathLattice) Join(a, b *flowState) *flowState {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return join(a, b)
}

func (pathLattice) Equal(a, b *flowState) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.equal(b)
}

// join returns the state holding on paths through a or b: each map joined
// by its lattice, then the reduction that crosses them: an error whose
// successful classification finds a delay <= 0 on both sides keeps
// zeroDelay, whether each side knew it of the error or of its delay.
func join(a, b *flowState) *flowState {
	r := &flowState{
		errs:    a.errs.join(b.errs),
		tests:   a.tests.join(b.tests),
		zero:    a.zero.join(b.zero),
		pending: a.pending.join(b.pending),
		vals:    a.vals.join(b.vals),
	}
	for _, s := range []*flowState{a, b} {
		for k := range s.errs {
			if k != nil && a.zeroDelay(k) && b.zeroDelay(k) {
				f := r.errs[k]
				f.zeroDelay = true
				r.errs[k] = f
			}
		}
	}
	return r
}

// zeroDelay reports whether, at s, a successful retry classification of
// error variable k would find a delay <= 0: the value's zeroDelay fact, or
// a transient value whose classified delay is known to be <= 0.
func (s *flowState) zeroDelay(k *types.Var) bool {
	f := s.errs[k]
	if f.zeroDelay {
		return true
	}
	if !f.transient {
		return false
	}
	return bool(s.zero[k]) || (f.delay != nil && bool(s.zero[f.delay])) || (f.carrier != nil && bool(s.zero[f.carrier]))
}

func (s *flowState) equal(o *flowState) bool {
	return s.errs.equal(o.errs) && s.tests.equal(o.tests) && s.zero.equal(o.zero) &&
		s.pending.equal(o.pending) && s.vals.equal(o.vals)
}

// normalize stores the facts that other facts imply, so that states that
// say the same thing are equal: an error whose successful classification
// found a delay known to be <= 0 has zeroDelay, and constants a followed
// variable cannot hold have no snapshot. The solver normalizes every
// state it propagates.
func (s *flowState) normalize() {
	for k, f := range s.errs {
		if k != nil && !bool(f.zeroDelay) && s.zeroDelay(k) {
			f.zeroDelay = true
			s.errs[k] = f
		}
	}
	for x, v := range s.vals {
		for k := range v.when {
			if v.possible != nil && !v.possible[k] {
				delete(v.when, k)
			}
		}
		if v.possible == nil && len(v.when) == 0 {
			delete(s.vals, x) // nothing known
		}
	}
}

// kill forgets what was known about v's value, after v is assigned.
func (s *flowState) kill(v *types.Var) {
	if v == nil {
		return
	}
	delete(s.errs, v)
	delete(s.tests, v)
	delete(s.zero, v)
	delete(s.pending, v)
	delete(s.vals, v)
	s.killInVals(v)
	for k, t := range s.tests {
		if t.err == v {
			delete(s.tests, k) // it tested the old value
		}
	}
	for k, zs := range s.pending {
		if keep := zs.without(v); keep.none() {
			delete(s.pending, k)
		} else {
			s.pending[k] = keep
		}
	}
}

// apply records one side of a test.
func (s *flowState) apply(t *errTest, truth bool) {
	eff := t.ifFalse
	if truth {
		eff = t.ifTrue
	}
	f := s.errs[t.err]
	switch eff {
	case effTransient:
		f.transient, f.nonNil, f.noIntent, f.isNil = true, true, false, false
		f.permanent, f.nOrigin = false, nil
		f.delay, f.carrier, f.tOrigin = t.delay, t.carrier, t.origin
		if f.zeroDelay && t.err != nil {
			s.zero[t.err] = true // the error's delay, whichever way it is read
		}
	case effFailed:
		f.transient, f.producer, f.excluded = false, false, true
		if t.exact && t.err != nil {
			f.zeroDelay = true // no retry intent: any later success finds none
			f.noIntent = true
		}
		if _, isCall := t.origin.(*ast.CallExpr); isCall && t.err != nil {
			f.permanent, f.nOrigin = true, t.origin // not a type assertion: a decision the code made
		}
	case effIdentified:
		f.producer, f.excluded, f.nonNil, f.isNil, f.identified = false, true, true, false, true
	default:
		return
	}
	s.errs[t.err] = f
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

func (v *valFacts) none() bool { return v == nil }

// join returns what holds of a followed variable on paths through v's or
// o's, nil when nothing does.
func (v *valFacts) join(o *valFacts) *valFacts {
	if v == nil || o == nil {
		return nil // not followed on one side's paths yet: nothing holds on all
	}
	out := &valFacts{when: make(map[string]*flowState)}
	if v.possible != nil && o.possible != nil {
		out.possible = maps.Clone(v.possible)
		maps.Copy(out.possible, o.possible)
	}
	for _, f := range []*valFacts{v, o} {
		for k := range f.when {
			if _, done := out.when[k]; done {
				continue
			}
			sa, topA := v.side(k)
			sb, topB := o.side(k)
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
	if out.possible == nil && len(out.when) == 0 {
		return nil
	}
	return out
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
	if _, ok := s.errs[v]; ok || bool(s.zero[v]) {
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

// boolKey is the constKey of a boolean constant.
func boolKey(b bool) string {
	return constant.Bool.String() + ":" + constant.MakeBool(b).ExactString()
}
