package transient

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"golang.org/x/tools/go/cfg"
)

// Refinement along CFG edges: what holds on each side of a condition
// (classification results, nil checks, delay bounds, followed constants).

// edge refines st by what following successor i of b tells.
func (p *pathAnalysis) edge(st *flowState, b *cfg.Block, i int) {
	if len(b.Succs) != 2 {
		return
	}
	truth := i == 0
	if tt, ok := p.typeTests[b]; ok {
		p.refineType(st, tt, truth)
		return
	}
	if len(b.Nodes) == 0 {
		return
	}
	cond, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr)
	if !ok {
		return
	}
	if tag, ok := p.tagOf[cond]; ok {
		p.compare(st, tag, token.EQL, cond, truth)
		return
	}
	if gotypes.IsBool(p.m.info.TypeOf(cond)) {
		p.refine(st, cond, truth)
	}
}

// refineType refines st by one edge of a type-switch case test. The body
// edge knows that one of the clause's types matched: for one type, what its
// success tells; for several, the join of what each type's success tells.
// The clause's last test's false edge knows that none matched; the false
// edges between its tests carry nothing (the clause is decided on its
// body edge and past its last test).
func (p *pathAnalysis) refineType(st *flowState, tt typeTest, truth bool) {
	if !gotypes.IsErrorish(p.m.info.TypeOf(tt.err)) {
		return
	}
	list := tt.cc.List
	switch {
	case truth && len(list) > 1:
		var one *flowState
		for _, typ := range list {
			c := st.clone()
			p.refineCase(c, tt, typ, true)
			one = pathLattice{}.Join(one, c)
		}
		*st = *one
	case truth:
		p.refineCase(st, tt, list[0], true)
	case tt.last:
		for _, typ := range list {
			p.refineCase(st, tt, typ, false)
		}
	}
}

// refineCase refines st by the switched error having (truth) or not the
// case type typ.
func (p *pathAnalysis) refineCase(st *flowState, tt typeTest, typ ast.Expr, truth bool) {
	info := p.m.info
	if gotypes.IsNilExpr(info, typ) {
		p.nilCheck(st, tt.err, !truth)
		return
	}
	var bound *types.Var
	if len(tt.cc.List) == 1 {
		bound, _ = info.Implicits[tt.cc].(*types.Var)
	}
	if t := p.assertTest(tt.err, info.TypeOf(typ), bound, typ); t != nil {
		st.apply(p.memoTest(typ, t), truth)
	}
}

// memoTest keeps one test per expression so that joins recognize it.
func (p *pathAnalysis) memoTest(e ast.Expr, t *errTest) *errTest {
	if old, ok := p.tests[e]; ok && old != nil {
		return old
	}
	p.tests[e] = t
	return t
}

// refine records what cond evaluating to truth tells.
func (p *pathAnalysis) refine(st *flowState, cond ast.Expr, truth bool) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			p.refine(st, e.X, !truth)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			if truth {
				p.refine(st, e.X, true)
				p.refine(st, e.Y, true)
			} else {
				p.undecided(st, e, false)
			}
		case token.LOR:
			if !truth {
				p.refine(st, e.X, false)
				p.refine(st, e.Y, false)
			} else {
				p.undecided(st, e, true)
			}
		default:
			p.compare(st, e.X, e.Op, e.Y, truth)
		}
	case *ast.Ident:
		v := p.varOf(e)
		if v == nil {
			return
		}
		if t := st.tests[v]; t != nil {
			st.apply(t, truth)
		}
		if gotypes.IsBool(v.Type()) && p.followed(v) {
			st.assume(v, boolKey(truth))
		}
		if truth {
			for _, z := range st.pending[v] {
				st.zero[z] = true
			}
		}
	case *ast.CallExpr:
		if t := p.testOf(st, e); t != nil {
			st.apply(t, truth)
		}
	}
}

// undecided handles the side of a && b (false) or a || b (true) that does
// not say which operand decided. A retry classification among the operands
// makes the producer's error branch doubtful; and for ok && d > 0 false
// (or !ok || d <= 0 true) it remembers that d <= 0 once ok is known true.
func (p *pathAnalysis) undecided(st *flowState, e *ast.BinaryExpr, truth bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case ast.Expr:
			if t := p.testOf(st, n); t != nil && t.ifTrue == effTransient {
				f := st.errs[t.err]
				if bool(f.producer) || !bool(f.excluded) {
					f.producer, f.excluded = false, true
					st.errs[t.err] = f
				}
			}
		}
		return true
	})
	if truth && e.Op == token.LOR {
		// errors.Is(err, A) || errors.Is(err, B): err is one of them.
		var first *errTest
		all := true
		for _, x := range disjuncts(e) {
			t := p.testOf(st, x)
			if t == nil || t.ifTrue != effIdentified || (first != nil && t.err != first.err) {
				all = false
				break
			}
			if first == nil {
				first = t
			}
		}
		if all && first != nil {
			st.apply(first, true)
		}
	}
	for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		ok, other := pair[0], pair[1]
		want := true // a && b false: when a is true, b is false
		if e.Op == token.LOR {
			// !a || b true: when a is true, b is true
			u, isNot := ast.Unparen(ok).(*ast.UnaryExpr)
			if !isNot || u.Op != token.NOT {
				continue
			}
			ok = u.X
		} else {
			want = false
		}
		probe := newFlowState()
		p.refine(probe, other, want)
		// ok && d > 0 false, d and ok from a classification of err: the
		// classification failed or found d <= 0, so any later success of a
		// classification of the same value finds a delay <= 0.
		if t := p.testOf(st, ok); t != nil && t.exact && t.ifTrue == effTransient && t.err != nil &&
			((t.delay != nil && bool(probe.zero[t.delay])) || (t.carrier != nil && bool(probe.zero[t.carrier]))) {
			f := st.errs[t.err]
			f.zeroDelay = true
			st.errs[t.err] = f
		}
		v := p.varOf(ok)
		if v == nil || !gotypes.IsBool(v.Type()) {
			continue
		}
		for z := range probe.zero {
			st.pending[v] = appendUnique(st.pending[v], z)
		}
	}
}

// disjuncts flattens a || b || c.
func disjuncts(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return append(disjuncts(b.X), disjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

func appendUnique(vs []*types.Var, v *types.Var) []*types.Var {
	for _, w := range vs {
		if w == v {
			return vs
		}
	}
	vs = append(vs, v)
	sort.Slice(vs, func(i, j int) bool { return vs[i].Pos() < vs[j].Pos() })
	return vs
}

// compare refines st by x op y evaluating to truth: nil checks of errors,
// comparisons with other errors, and bounds on delays.
func (p *pathAnalysis) compare(st *flowState, x ast.Expr, op token.Token, y ast.Expr, truth bool) {
	info := p.m.info
	if op == token.EQL || op == token.NEQ {
		nonNil := (op == token.NEQ) == truth
		switch {
		case gotypes.IsNilExpr(info, y):
			p.nilCheck(st, x, nonNil)
			return
		case gotypes.IsNilExpr(info, x):
			p.nilCheck(st, y, nonNil)
			return
		case !nonNil && gotypes.IsErrorish(info.TypeOf(x)) && gotypes.IsErrorish(info.TypeOf(y)):
			// err == ErrSomething: the error is that one.
			for _, e := range []ast.Expr{x, y} {
				if v := p.varOf(e); v != nil {
					st.apply(&errTest{err: v, ifTrue: effIdentified}, true)
				}
			}
			return
		}
	}
	if (op == token.EQL) == truth && (op == token.EQL || op == token.NEQ) {
		if v, k := p.valueTest(x, y); v != nil {
			st.assume(v, k)
		}
	}
	if z := p.zeroBound(x, op, y, truth); z != nil {
		st.zero[z] = true
	}
}

// zeroBound returns the delay that x op y == truth proves <= 0: d <= 0,
// d == 0, d < 1, the false side of d > 0 and d != 0, mirrored forms, and
// c.RetryDelay() in place of d.
func (p *pathAnalysis) zeroBound(x ast.Expr, op token.Token, y ast.Expr, truth bool) *types.Var {
	mirror := map[token.Token]token.Token{
		token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ,
		token.GEQ: token.LEQ, token.EQL: token.EQL, token.NEQ: token.NEQ,
	}
	negate := map[token.Token]token.Token{
		token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ,
		token.LEQ: token.GTR, token.EQL: token.NEQ, token.NEQ: token.EQL,
	}
	if _, ok := mirror[op]; !ok {
		return nil
	}
	d := p.delayOf(x)
	c, isConst := p.intConst(y)
	if d == nil {
		d = p.delayOf(y)
		c, isConst = p.intConst(x)
		op = mirror[op]
	}
	if d == nil || !isConst {
		return nil
	}
	if !truth {
		op = negate[op]
	}
	switch op {
	case token.LEQ, token.EQL:
		if c <= 0 {
			return d
		}
	case token.LSS:
		if c <= 1 {
			return d
		}
	}
	return nil
}

// delayOf returns the variable a delay expression reads: a time.Duration
// variable, or a carrier variable c in c.RetryDelay().
func (p *pathAnalysis) delayOf(e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v := p.varOf(e); v != nil && gotypes.IsDuration(v.Type()) {
			return v
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || len(e.Args) != 0 || sel.Sel.Name != p.m.carrierMethod || !gotypes.IsDuration(p.m.info.TypeOf(e)) {
			return nil
		}
		if v := p.varOf(sel.X); v != nil && p.m.prod.IsCarrier(v.Type()) {
			return v
		}
	}
	return nil
}

func (p *pathAnalysis) intConst(e ast.Expr) (int64, bool) {
	tv, ok := p.m.info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// nilCheck records that error expression e is nil or not.
func (p *pathAnalysis) nilCheck(st *flowState, e ast.Expr, nonNil bool) {
	if !gotypes.IsErrorish(p.m.info.TypeOf(e)) {
		return
	}
	v := p.errVar(e)
	f := st.errs[v]
	if nonNil {
		f.nonNil, f.isNil = true, false
		if !bool(f.producer) && !bool(f.excluded) {
			if call, ok := p.mayBeRetryable(e); ok {
				f.producer, f.pOrigin = true, call
			}
		}
	} else {
		f.nonNil, f.producer, f.transient = false, false, false
		f.isNil = v != nil
		f.zeroDelay = v != nil // a nil error carries no retry intent
	}
	st.errs[v] = f
}
