package transient

import (
	"go/ast"
	"go/types"
)

// effect is what one side of a test tells about the error it tests.
type effect int

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
	// permanent: a retry classification call of the value (a delay
	// classifier, errors.As into a carrier, a retry predicate, known by
	// its fact or only by its name) failed on every path since it was
	// assigned: the code decided it carries no retry intent.
	permanent bool
	nOrigin   ast.Node // with permanent: the failed classification, if every path agrees

	// May-facts.
	excluded   bool // a classification failed or identified another error
	classified bool // the value was inspected since it was assigned
	// identified: on some path since it was assigned, the value was
	// identified as a known error (errors.Is true, a type switch case or
	// assertion on a type that is not a carrier): a decision about that
	// error, which ackpermanent leaves alone.
	identified bool
}

func joinErrFacts(a, b errFacts) errFacts {
	r := errFacts{
		nonNil:     a.nonNil && b.nonNil,
		isNil:      a.isNil && b.isNil,
		zeroDelay:  a.zeroDelay && b.zeroDelay,
		noIntent:   a.noIntent && b.noIntent,
		permanent:  a.permanent && b.permanent,
		excluded:   a.excluded || b.excluded,
		classified: a.classified || b.classified,
		identified: a.identified || b.identified,
	}
	if r.permanent && a.nOrigin == b.nOrigin {
		r.nOrigin = a.nOrigin
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
	vals    map[*types.Var]*valFacts    // must: what a local variable's constant value tells (values.go)

	// infeasible is set on an edge no path takes (a followed variable
	// tested for a constant it is known not to hold); never joined.
	infeasible bool
}

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
