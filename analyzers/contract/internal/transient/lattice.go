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

// The methods that make *errTest a fact of varMap: which test a boolean
// variable holds, when every path agrees (agree).
func (t *errTest) join(o *errTest) *errTest { return agree(t, o) }
func (t *errTest) equal(o *errTest) bool    { return t == o }
func (t *errTest) none() bool               { return t == nil }
func (t *errTest) clone() *errTest          { return t }

// errFacts is what is known about one error variable: a product of a
// must part and a may part, joined part by part.
type errFacts struct {
	mustFacts
	mayFacts
}

func (f errFacts) join(o errFacts) errFacts {
	return errFacts{f.mustFacts.join(o.mustFacts), f.mayFacts.join(o.mayFacts)}
}
func (f errFacts) equal(o errFacts) bool { return f == o }
func (f errFacts) none() bool            { return f == errFacts{} }
func (f errFacts) clone() errFacts       { return f }

// mustFacts hold of an error variable on every path. Each field is a must
// (joined by and) or a witness of one (joined by agree): what established
// the fact, when every path agrees. A witness means nothing without its
// fact, and the join clears it where the fact does not hold (reduce).
type mustFacts struct {
	transient must       // a retry classification of the value succeeded
	delay     *types.Var // witness of transient: the delay variable
	carrier   *types.Var // witness of transient: the carrier variable
	tOrigin   ast.Node   // witness of transient: the classification
	producer  must       // non-nil, and may hold a retryable producer's error
	pOrigin   *ast.CallExpr
	nonNil    must
	isNil     must // the value is nil: tested against nil on every path
	// zeroDelay: whenever a retry classification of the value succeeds,
	// its delay is <= 0. It holds where an exact classification failed
	// (the value carries no retry intent), on the false side of
	// ok && d > 0, and after a join of such paths with transient ones
	// whose delay is known to be <= 0.
	zeroDelay must
	// noIntent: an exact retry classification of the value failed on
	// every path since it was assigned, so it provably holds no carrier.
	noIntent must
	// permanent: a retry classification call of the value (a delay
	// classifier, errors.As into a carrier, a retry predicate, known by
	// its fact or only by its name) failed on every path since it was
	// assigned: the code decided it carries no retry intent.
	permanent must
	nOrigin   ast.Node // witness of permanent: the failed classification
}

// join joins field by field, each field by its lattice.
func (f mustFacts) join(o mustFacts) mustFacts {
	return mustFacts{
		transient: f.transient.join(o.transient),
		delay:     agree(f.delay, o.delay),
		carrier:   agree(f.carrier, o.carrier),
		tOrigin:   agree(f.tOrigin, o.tOrigin),
		producer:  f.producer.join(o.producer),
		pOrigin:   agree(f.pOrigin, o.pOrigin),
		nonNil:    f.nonNil.join(o.nonNil),
		isNil:     f.isNil.join(o.isNil),
		zeroDelay: f.zeroDelay.join(o.zeroDelay),
		noIntent:  f.noIntent.join(o.noIntent),
		permanent: f.permanent.join(o.permanent),
		nOrigin:   agree(f.nOrigin, o.nOrigin),
	}.reduce()
}

// reduce clears the witnesses of the facts that do not hold.
func (f mustFacts) reduce() mustFacts {
	if !f.transient {
		f.delay, f.carrier, f.tOrigin = nil, nil, nil
	}
	if !f.producer {
		f.pOrigin = nil
	}
	if !f.permanent {
		f.nOrigin = nil
	}
	return f
}

// mayFacts hold of an error variable on some path: each field is a may
// (joined by or).
type mayFacts struct {
	excluded   may // a classification failed or identified another error
	classified may // the value was inspected since it was assigned
	// identified: on some path since it was assigned, the value was
	// identified as a known error (errors.Is true, a type switch case or
	// assertion on a type that is not a carrier): a decision about that
	// error, which ackpermanent leaves alone.
	identified may
}

// join joins field by field, each field by its lattice.
func (f mayFacts) join(o mayFacts) mayFacts {
	return mayFacts{
		excluded:   f.excluded.join(o.excluded),
		classified: f.classified.join(o.classified),
		identified: f.identified.join(o.identified),
	}
}

// flowState is the state at one point of a function.
type flowState struct {
	errs    varMap[errFacts]  // per error variable; the nil key for errors not in a variable
	tests   varMap[*errTest]  // must: a bool variable holds this test's result (agree)
	zero    varMap[must]      // must: a delay (variable or carrier's delay) is <= 0
	pending varMap[mustSet]   // must: when the bool variable is true, these delays are <= 0
	vals    varMap[*valFacts] // must: what a local variable's constant value tells (values.go)

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
