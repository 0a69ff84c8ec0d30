package transient

import (
	"go/ast"
	"go/types"
	"slices"
)

// This file holds the abstract state of the transient-path analysis: what is
// known about the error variables of a function on the paths that reach a
// point. Must-facts hold on every path (joined by intersection); may-facts
// on some path (joined by union).

// effect is what one side of a test tells about the error it tests.
type effect int

const (
	effNone       effect = iota
	effTransient         // a retry classification succeeded
	effFailed            // a retry classification failed: no retry intent
	effIdentified        // the error was identified as something else
)

// errTest is a boolean that tests an error: errors.As, a classifier's ok,
// a predicate, a type assertion. Tests are built once per expression, so
// two paths through the same test share the pointer.
type errTest struct {
	err     *types.Var // the error tested; nil when it is not held in a variable
	ifTrue  effect
	ifFalse effect
	delay   *types.Var // time.Duration variable bound to the classified delay
	carrier *types.Var // carrier variable bound by the classification
	origin  ast.Node   // the classifying expression
	// exact is set when the test is the contract's own retry
	// classification (a delay classifier, errors.As into a carrier, a
	// predicate known by its fact): when it fails, the error is taken to
	// carry no retry intent. Predicates known only by their name and type
	// assertions (which look at the top of the chain only) are not exact.
	exact bool
}

// errFacts is what is known about one error variable.
type errFacts struct {
	// Must-facts.
	transient bool       // a retry classification of the value succeeded
	delay     *types.Var // with transient: the delay variable, if every path agrees
	carrier   *types.Var // with transient: the carrier variable, if every path agrees
	tOrigin   ast.Node   // with transient: the classification, if every path agrees
	producer  bool       // non-nil, and may hold a retryable producer's error
	pOrigin   *ast.CallExpr
	nonNil    bool
	isNil     bool // the value is nil: tested against nil on every path
	// zeroDelay: whenever a retry classification of the value succeeds,
	// its delay is <= 0. It holds where an exact classification failed
	// (the value carries no retry intent), on the false side of
	// ok && d > 0, and after a join of such paths with transient ones
	// whose delay is known to be <= 0.
	zeroDelay bool
	// noIntent: an exact retry classification of the value failed on
	// every path since it was assigned, so it provably holds no carrier.
	noIntent bool

	// May-facts.
	excluded   bool // a classification failed or identified another error
	classified bool // the value was inspected since it was assigned
}

func joinErrFacts(a, b errFacts) errFacts {
	r := errFacts{
		nonNil:     a.nonNil && b.nonNil,
		isNil:      a.isNil && b.isNil,
		zeroDelay:  a.zeroDelay && b.zeroDelay,
		noIntent:   a.noIntent && b.noIntent,
		excluded:   a.excluded || b.excluded,
		classified: a.classified || b.classified,
	}
	if a.transient && b.transient {
		r.transient = true
		r.delay = same(a.delay, b.delay)
		r.carrier = same(a.carrier, b.carrier)
		if a.tOrigin == b.tOrigin {
			r.tOrigin = a.tOrigin
		}
	}
	if a.producer && b.producer {
		r.producer = true
		if a.pOrigin == b.pOrigin {
			r.pOrigin = a.pOrigin
		}
	}
	return r
}

func same[T comparable](a, b T) T {
	var zero T
	if a == b {
		return a
	}
	return zero
}

// flowState is the state at one point of a function.
type flowState struct {
	errs    map[*types.Var]errFacts     // per error variable; the nil key for errors not in a variable
	tests   map[*types.Var]*errTest     // must: a bool variable holds this test's result
	zero    map[*types.Var]bool         // must: a delay (variable or carrier's delay) is <= 0
	pending map[*types.Var][]*types.Var // must: when the bool variable is true, these delays are <= 0
	vals    map[*types.Var]*valFacts    // must: what a local variable's constant value tells (transient_values.go)

	// infeasible is set on an edge no path takes (a followed variable
	// tested for a constant it is known not to hold); never joined.
	infeasible bool
}

func newFlowState() *flowState {
	return &flowState{
		errs:    make(map[*types.Var]errFacts),
		tests:   make(map[*types.Var]*errTest),
		zero:    make(map[*types.Var]bool),
		pending: make(map[*types.Var][]*types.Var),
		vals:    make(map[*types.Var]*valFacts),
	}
}

func (s *flowState) clone() *flowState {
	c := newFlowState()
	for k, v := range s.errs {
		c.errs[k] = v
	}
	for k, v := range s.tests {
		c.tests[k] = v
	}
	for k, v := range s.zero {
		c.zero[k] = v
	}
	for k, v := range s.pending {
		c.pending[k] = append([]*types.Var(nil), v...)
	}
	for k, v := range s.vals {
		c.vals[k] = v.clone()
	}
	return c
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

// join returns the state holding on paths through a or b.
func join(a, b *flowState) *flowState {
	r := newFlowState()
	for k, fa := range a.errs {
		if f := joinErrFacts(fa, b.errs[k]); f != (errFacts{}) {
			r.errs[k] = f
		}
	}
	for k, fb := range b.errs {
		if _, done := a.errs[k]; !done {
			if f := joinErrFacts(errFacts{}, fb); f != (errFacts{}) {
				r.errs[k] = f
			}
		}
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
	for k, t := range a.tests {
		if b.tests[k] == t {
			r.tests[k] = t
		}
	}
	for k := range a.zero {
		if b.zero[k] {
			r.zero[k] = true
		}
	}
	for k, za := range a.pending {
		var both []*types.Var
		for _, z := range za {
			for _, y := range b.pending[k] {
				if y == z {
					both = append(both, z)
					break
				}
			}
		}
		if len(both) > 0 {
			r.pending[k] = both
		}
	}
	joinVals(r, a, b)
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
	return s.zero[k] || (f.delay != nil && s.zero[f.delay]) || (f.carrier != nil && s.zero[f.carrier])
}

func (s *flowState) equal(o *flowState) bool {
	if len(s.errs) != len(o.errs) || len(s.tests) != len(o.tests) ||
		len(s.zero) != len(o.zero) || len(s.pending) != len(o.pending) ||
		len(s.vals) != len(o.vals) {
		return false
	}
	for k, v := range s.vals {
		if !v.equal(o.vals[k]) {
			return false
		}
	}
	for k, v := range s.errs {
		if w, ok := o.errs[k]; !ok || w != v {
			return false
		}
	}
	for k, v := range s.tests {
		if o.tests[k] != v {
			return false
		}
	}
	for k := range s.zero {
		if !o.zero[k] {
			return false
		}
	}
	for k, v := range s.pending {
		w := o.pending[k]
		if len(w) != len(v) {
			return false
		}
		for _, z := range v { // a set: joins keep either operand's order
			if !slices.Contains(w, z) {
				return false
			}
		}
	}
	return true
}

// normalize stores the facts that other facts imply, so that states that
// say the same thing are equal: an error whose successful classification
// found a delay known to be <= 0 has zeroDelay, and constants a followed
// variable cannot hold have no snapshot. The solver normalizes every
// state it propagates.
func (s *flowState) normalize() {
	for k, f := range s.errs {
		if k != nil && !f.zeroDelay && s.zeroDelay(k) {
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
		var keep []*types.Var
		for _, z := range zs {
			if z != v {
				keep = append(keep, z)
			}
		}
		if len(keep) == 0 {
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
	case effIdentified:
		f.producer, f.excluded, f.nonNil, f.isNil = false, true, true, false
	default:
		return
	}
	s.errs[t.err] = f
}
