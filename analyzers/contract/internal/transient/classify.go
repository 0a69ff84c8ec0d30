package transient

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Tests over errors: the classifications (errors.As, errors.AsType,
// classifiers, predicates, type assertions) and the inspections that mark
// an error classified.

// tupleTest returns the test whose result the second value of rhs holds.
func (p *pathAnalysis) tupleTest(rhs, first ast.Expr) *errTest {
	if t, done := p.tests[rhs]; done {
		return t
	}
	var t *errTest
	switch e := ast.Unparen(rhs).(type) {
	case *ast.CallExpr:
		if fn := gotypes.StaticCallee(p.m.info, e); gotypes.IsPkgFunc(fn, "errors", "AsType") && len(e.Args) == 1 {
			// x, ok := errors.AsType[T](err): errors.As with the target's
			// type as a type argument.
			if tup, ok := p.m.info.TypeOf(e).(*types.Tuple); ok && tup.Len() == 2 && gotypes.IsErrorish(p.m.info.TypeOf(e.Args[0])) {
				t = p.assertTest(e.Args[0], tup.At(0).Type(), p.varOf(first), e)
				if t != nil && t.ifTrue == effTransient {
					t.exact = true
				}
			}
		} else if fn != nil && p.m.ClassifierKind(fn) == DelayClassifier {
			if arg := errorArg(p.m.info, fn, e); arg != nil && gotypes.IsErrorish(p.m.info.TypeOf(arg)) {
				t = &errTest{err: p.errVar(arg), ifTrue: effTransient, ifFalse: effFailed, origin: e, exact: true}
				if d := p.varOf(first); d != nil && gotypes.IsDuration(d.Type()) {
					t.delay = d
				}
			}
		}
	case *ast.TypeAssertExpr:
		if e.Type != nil && gotypes.IsErrorish(p.m.info.TypeOf(e.X)) {
			t = p.assertTest(e.X, p.m.info.TypeOf(e.Type), p.varOf(first), e)
		}
	}
	p.tests[rhs] = t
	return t
}

// assertTest is the test of err.(T) or of a type switch case T.
func (p *pathAnalysis) assertTest(x ast.Expr, typ types.Type, bound *types.Var, origin ast.Node) *errTest {
	if !gotypes.IsValid(typ) {
		return nil
	}
	t := &errTest{err: p.errVar(x), origin: origin}
	if p.m.prod.IsCarrier(typ) {
		t.ifTrue, t.ifFalse = effTransient, effFailed
		if bound != nil && p.m.prod.IsCarrier(bound.Type()) {
			t.carrier = bound
		}
	} else {
		t.ifTrue = effIdentified
	}
	return t
}

// testOf returns the test a boolean expression stands for, if any.
func (p *pathAnalysis) testOf(st *flowState, e ast.Expr) *errTest {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v := p.varOf(e); v != nil {
			return st.tests[v]
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return p.negate(p.testOf(st, e.X))
		}
	case *ast.CallExpr:
		t, done := p.tests[e]
		if !done {
			t = p.callTest(e)
			p.tests[e] = t
		}
		return t
	}
	return nil
}

// negate returns the test with its sides swapped, one per test.
func (p *pathAnalysis) negate(t *errTest) *errTest {
	if t == nil {
		return nil
	}
	n, ok := p.negated[t]
	if !ok {
		c := *t
		c.ifTrue, c.ifFalse = t.ifFalse, t.ifTrue
		n = &c
		p.negated[t] = n
	}
	return n
}

// callTest returns the test a boolean call makes: errors.As, errors.Is, a
// retry predicate.
func (p *pathAnalysis) callTest(call *ast.CallExpr) *errTest {
	info := p.m.info
	fn := gotypes.StaticCallee(info, call)
	switch {
	case (gotypes.IsPkgFunc(fn, "errors", "As") || gotypes.IsPkgFunc(fn, "errors", "Is")) && len(call.Args) == 2 && !gotypes.IsErrorish(info.TypeOf(call.Args[0])):
		return nil // a broken operand tells nothing
	case gotypes.IsPkgFunc(fn, "errors", "As") && len(call.Args) == 2:
		t := &errTest{err: p.errVar(call.Args[0]), origin: call}
		ptr, _ := info.TypeOf(call.Args[1]).(*types.Pointer)
		if ptr != nil && p.m.prod.IsCarrier(ptr.Elem()) {
			t.ifTrue, t.ifFalse, t.exact = effTransient, effFailed, true
			if u, ok := ast.Unparen(call.Args[1]).(*ast.UnaryExpr); ok && u.Op == token.AND {
				t.carrier = p.varOf(u.X)
			}
		} else {
			t.ifTrue = effIdentified
		}
		return t
	case gotypes.IsPkgFunc(fn, "errors", "Is") && len(call.Args) == 2:
		if tv, ok := info.Types[call.Args[1]]; ok && tv.IsNil() {
			return nil
		}
		return &errTest{err: p.errVar(call.Args[0]), ifTrue: effIdentified, origin: call}
	}
	if !p.isPredicate(fn, call) {
		return nil
	}
	for _, a := range call.Args {
		if gotypes.IsErrorish(info.TypeOf(a)) {
			return &errTest{err: p.errVar(a), ifTrue: effTransient, ifFalse: effFailed, origin: call,
				exact: fn != nil && p.m.ClassifierKind(fn) == PredicateClassifier}
		}
	}
	return nil
}

// isPredicate reports whether call is a retry predicate: it returns one
// bool and is a predicate classifier (a fact, any package) or its name
// matches the configured pattern.
func (p *pathAnalysis) isPredicate(fn *types.Func, call *ast.CallExpr) bool {
	if !gotypes.IsBool(p.m.info.TypeOf(call)) {
		return false
	}
	if fn != nil && p.m.ClassifierKind(fn) == PredicateClassifier {
		return true
	}
	var name string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	case *ast.IndexExpr: // generic instantiation
		if id, ok := ast.Unparen(f.X).(*ast.Ident); ok {
			name = id.Name
		} else if sel, ok := ast.Unparen(f.X).(*ast.SelectorExpr); ok {
			name = sel.Sel.Name
		}
	}
	re := p.m.predicate
	return name != "" && re != nil && re.MatchString(name)
}

// errorArg returns the argument of call passed to fn's first error
// parameter.
func errorArg(info *types.Info, fn *types.Func, call *ast.CallExpr) ast.Expr {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return nil
	}
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		if gotypes.IsErrorish(sig.Params().At(i).Type()) {
			return call.Args[i]
		}
	}
	return nil
}

// markClassified records the inspections of error values node n makes:
// errors.As and errors.Is, type assertions and switches, comparisons with
// other errors, and calls taking the error that return a bool or a delay.
func (p *pathAnalysis) markClassified(st *flowState, n ast.Node) {
	info := p.m.info
	mark := func(e ast.Expr) {
		for _, v := range p.errVarsIn(e) {
			f := st.errs[v]
			f.classified = true
			st.errs[v] = f
		}
	}
	if e, ok := n.(ast.Expr); ok {
		if tag, ok := p.tagOf[e]; ok && !gotypes.IsNilExpr(info, e) {
			mark(tag) // switch err { case ErrX: }, switch err.Error() { case "...": }
		}
	}
	if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
		if ta, ok := as.Rhs[0].(*ast.TypeAssertExpr); ok && ta.Type == nil {
			mark(ta.X)
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.TypeAssertExpr:
			mark(n.X)
		case *ast.BinaryExpr:
			// err == ErrX, err.Error() == "...", code(err) >= 500; not err != nil.
			switch n.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				if !gotypes.IsNilExpr(info, n.X) && !gotypes.IsNilExpr(info, n.Y) {
					mark(n.X)
					mark(n.Y)
				}
			}
		case *ast.CallExpr:
			if p.inspectsError(n) {
				for _, a := range n.Args {
					mark(a)
				}
			}
		}
		return true
	})
}

// inspectsError reports whether a call taking an error can tell retry
// intent apart: errors.As, errors.Is, or a result that is a bool, a delay
// or an integer code.
func (p *pathAnalysis) inspectsError(call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	fn := gotypes.StaticCallee(p.m.info, call)
	if gotypes.IsPkgFunc(fn, "errors", "As") || gotypes.IsPkgFunc(fn, "errors", "Is") || gotypes.IsPkgFunc(fn, "errors", "AsType") {
		return true
	}
	if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" {
		return false // Fprintf(w, "%v", err) returns a byte count, not a verdict
	}
	if tv, ok := p.m.info.Types[call.Fun]; ok && tv.IsType() {
		return false
	}
	switch t := p.m.info.TypeOf(call).(type) {
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if isVerdict(t.At(i).Type()) {
				return true
			}
		}
	case nil:
	default:
		return isVerdict(t)
	}
	return false
}

// isVerdict reports whether a value of type t can carry a verdict about an
// error: a bool, a delay, an integer code.
func isVerdict(t types.Type) bool {
	if !gotypes.IsValid(t) {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsInteger) != 0
}

// errVarsIn returns the error variables an expression mentions, outside
// nested function literals.
func (p *pathAnalysis) errVarsIn(e ast.Expr) []*types.Var {
	var vs []*types.Var
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					if v, ok := p.m.info.Uses[id].(*types.Var); ok && !v.IsField() && gotypes.IsErrorish(v.Type()) {
						vs = append(vs, v)
					}
				}
				return true
			})
			return false
		case *ast.Ident:
			if v, ok := p.m.info.Uses[n].(*types.Var); ok && !v.IsField() && gotypes.IsErrorish(v.Type()) {
				vs = append(vs, v)
			}
		}
		return true
	})
	return vs
}
