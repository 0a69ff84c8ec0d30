package contract

import (
	"go/ast"
	"go/types"
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

	// May-facts.
	excluded   bool // a classification failed or identified another error
	classified bool // the value was inspected since it was assigned
}

func joinErrFacts(a, b errFacts) errFacts {
	r := errFacts{
		nonNil:     a.nonNil && b.nonNil,
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
}

func newFlowState() *flowState {
	return &flowState{
		errs:    make(map[*types.Var]errFacts),
		tests:   make(map[*types.Var]*errTest),
		zero:    make(map[*types.Var]bool),
		pending: make(map[*types.Var][]*types.Var),
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
	return c
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
	return r
}

func (s *flowState) equal(o *flowState) bool {
	if len(s.errs) != len(o.errs) || len(s.tests) != len(o.tests) ||
		len(s.zero) != len(o.zero) || len(s.pending) != len(o.pending) {
		return false
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
		for i := range v {
			if v[i] != w[i] {
				return false
			}
		}
	}
	return true
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
		f.transient, f.nonNil = true, true
		f.delay, f.carrier, f.tOrigin = t.delay, t.carrier, t.origin
	case effFailed:
		f.transient, f.producer, f.excluded = false, false, true
	case effIdentified:
		f.producer, f.excluded, f.nonNil = false, true, true
	default:
		return
	}
	s.errs[t.err] = f
}
