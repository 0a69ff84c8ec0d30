package transient

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/internal/printf"
)

// Transfer functions of the transient-path analysis: what assignments
// and declarations do to the error facts, and where an error value comes
// from.

// transfer applies the effect of evaluating node n.
func (p *pathAnalysis) transfer(st *flowState, n ast.Node) {
	p.markClassified(st, n)
	switch n := n.(type) {
	case *ast.AssignStmt:
		p.assign(st, n)
	case *ast.ValueSpec:
		if len(n.Values) == len(n.Names) {
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			p.assignPairs(st, lhs, n.Values)
		} else if len(n.Values) == 1 {
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			p.assignTuple(st, lhs, n.Values[0])
		} else {
			for _, id := range n.Names {
				st.kill(p.varOf(id))
			}
			if len(n.Values) == 0 {
				for _, id := range n.Names {
					p.assignZero(st, p.varOf(id))
				}
			}
		}
	case *ast.IncDecStmt:
		st.kill(p.varOf(n.X))
	case ast.Expr:
		if p.rangeVars[n] {
			st.kill(p.varOf(n))
		}
	}
	// A variable whose address is passed may be changed by the callee.
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				st.kill(p.varOf(n.X))
			}
		}
		return true
	})
}

func (p *pathAnalysis) assign(st *flowState, as *ast.AssignStmt) {
	if len(as.Rhs) == 1 {
		if ta, ok := as.Rhs[0].(*ast.TypeAssertExpr); ok && ta.Type == nil {
			return // the x := err.(type) of a type switch binds per clause
		}
	}
	switch as.Tok {
	case token.ASSIGN, token.DEFINE:
	default:
		for _, l := range as.Lhs {
			st.kill(p.varOf(l))
		}
		return
	}
	switch {
	case len(as.Lhs) == len(as.Rhs):
		p.assignPairs(st, as.Lhs, as.Rhs)
	case len(as.Rhs) == 1:
		p.assignTuple(st, as.Lhs, as.Rhs[0])
	}
}

// assignPairs handles a, b = x, y: the new facts are computed from the
// state before the assignment, then stored.
func (p *pathAnalysis) assignPairs(st *flowState, lhs, rhs []ast.Expr) {
	type update struct {
		v     *types.Var
		facts errFacts
		isErr bool
		test  *errTest
	}
	var ups []update
	for i, l := range lhs {
		v := p.varOf(l)
		if v == nil {
			continue
		}
		u := update{v: v}
		if gotypes.IsErrorish(v.Type()) {
			u.isErr = true
			u.facts = p.errValue(st, rhs[i])
		} else if gotypes.IsBool(v.Type()) {
			u.test = p.testOf(st, rhs[i])
		}
		ups = append(ups, u)
	}
	for _, u := range ups {
		st.kill(u.v)
	}
	for _, u := range ups {
		if u.isErr && u.facts != (errFacts{}) {
			st.errs[u.v] = u.facts
		}
		if u.test != nil {
			st.tests[u.v] = u.test
		}
	}
	p.assignConsts(st, lhs, rhs)
}

// assignTuple handles d, ok := RetryDelay(err) and x, ok := err.(T).
func (p *pathAnalysis) assignTuple(st *flowState, lhs []ast.Expr, rhs ast.Expr) {
	var test *errTest
	if len(lhs) == 2 {
		test = p.tupleTest(rhs, lhs[0])
	}
	for _, l := range lhs {
		st.kill(p.varOf(l))
	}
	if test != nil {
		if ok := p.varOf(lhs[1]); ok != nil {
			st.tests[ok] = test
		}
	}
}

// errValue returns the facts of the value an error variable is assigned.
// Wrapping with %w or errors.Join keeps the wrapped error's facts; anything
// else is a new value nothing is known about.
func (p *pathAnalysis) errValue(st *flowState, rhs ast.Expr) errFacts {
	info := p.m.info
	rhs = ast.Unparen(rhs)
	switch e := rhs.(type) {
	case *ast.Ident:
		if v := p.varOf(e); v != nil {
			return st.errs[v]
		}
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return p.errValue(st, e.Args[0]) // error(x)
		}
		fn := gotypes.StaticCallee(info, e)
		var wrapped []ast.Expr
		always := false
		switch {
		case gotypes.IsPkgFunc(fn, "fmt", "Errorf"):
			wrapped, always = printf.WrappedOperands(info, e), true
		case gotypes.IsPkgFunc(fn, "errors", "Join"):
			wrapped = e.Args
		}
		var r errFacts
		// errors.As on the wrapper finds the first carrier of the first
		// operand that has one: its delay is <= 0 when every operand's is.
		r.zeroDelay = len(wrapped) > 0
		for _, w := range wrapped {
			v := p.varOf(w)
			if v == nil {
				r.zeroDelay = false
				continue
			}
			f := st.errs[v]
			r.zeroDelay = r.zeroDelay && must(st.zeroDelay(v))
			if f.transient && !r.transient {
				r.transient, r.delay, r.carrier, r.tOrigin = true, f.delay, f.carrier, f.tOrigin
			}
			if f.producer && !r.producer {
				r.producer, r.pOrigin = true, f.pOrigin
			}
			r.nonNil = r.nonNil || f.nonNil
			r.excluded = r.excluded || f.excluded
			r.classified = r.classified || f.classified
		}
		if always {
			r.nonNil = true
		}
		return r
	}
	return errFacts{}
}

// mayBeRetryable is Model.MayBeRetryable, memoized, with the producer call
// the value comes from when there is a single one.
func (p *pathAnalysis) mayBeRetryable(e ast.Expr) (*ast.CallExpr, bool) {
	if ok, done := p.isRetrying[e]; done {
		return p.retryable[e], ok
	}
	ok := p.m.prod.MayBeRetryable(e)
	var call *ast.CallExpr
	if ok {
		call = p.m.prod.ProducerCallOf(e, 0)
	}
	p.isRetrying[e], p.retryable[e] = ok, call
	return call, ok
}
