package contract

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
)

// maxVisits bounds the work of the transient-path fixpoint per block, a
// safety net: the lattice has finite height and the transfer functions are
// monotone, so a function that does not settle within it is a bug, counted
// in Model.Diverged (a test keeps it at zero).
const maxVisits = 64

// pathAnalysis computes, over one function body's control-flow graph, the
// flowState at the start of every block.
type pathAnalysis struct {
	m     *Model
	body  *ast.BlockStmt
	g     *cfg.CFG
	entry []*flowState // per block index; nil when unreached

	tagOf      map[ast.Expr]ast.Expr       // case value of a tagged switch -> its tag
	typeTests  map[*cfg.Block]typeTest     // block that ends in a type-switch test
	rangeVars  map[ast.Expr]bool           // range key and value expressions
	calls      map[*ast.CallExpr]nodeRef   // calls evaluated by the body's nodes
	returns    map[*ast.ReturnStmt]nodeRef // return statements
	tests      map[ast.Expr]*errTest       // memo of testOf
	negated    map[*errTest]*errTest       // memo of negate
	retryable  map[ast.Expr]*ast.CallExpr  // memo of mayBeRetryable: producer call or noCall
	isRetrying map[ast.Expr]bool           // memo of mayBeRetryable
	unfollowed map[*types.Var]bool         // memo of followed: addressed or assigned in a literal
	converged  bool
}

// typeTest is one type of one case clause of a type switch over an error.
type typeTest struct {
	err ast.Expr // the switched expression
	cc  *ast.CaseClause
	typ ast.Expr
}

// nodeRef locates a call: block index and index of the node holding it.
type nodeRef struct{ block, node int }

func (m *Model) newPathAnalysis(body *ast.BlockStmt) *pathAnalysis {
	p := &pathAnalysis{
		m:          m,
		body:       body,
		tagOf:      make(map[ast.Expr]ast.Expr),
		typeTests:  make(map[*cfg.Block]typeTest),
		rangeVars:  make(map[ast.Expr]bool),
		calls:      make(map[*ast.CallExpr]nodeRef),
		returns:    make(map[*ast.ReturnStmt]nodeRef),
		tests:      make(map[ast.Expr]*errTest),
		negated:    make(map[*errTest]*errTest),
		retryable:  make(map[ast.Expr]*ast.CallExpr),
		isRetrying: make(map[ast.Expr]bool),
	}
	p.g = m.graphs.Of(body)
	if p.g == nil {
		p.g = new(cfg.CFG) // no graph (type errors): no facts
	}
	p.index(body)
	p.solve()
	return p
}

// index records the switch cases, type-switch tests, range variables and
// calls of the body.
func (p *pathAnalysis) index(body *ast.BlockStmt) {
	typeSwitch := make(map[*ast.CaseClause]*ast.TypeSwitchStmt)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SwitchStmt:
			if n.Tag != nil {
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						p.tagOf[e] = n.Tag
					}
				}
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				typeSwitch[c.(*ast.CaseClause)] = n
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					p.rangeVars[e] = true
				}
			}
		}
		return true
	})
	nextCases := make(map[*ast.CaseClause][]*cfg.Block)
	for _, b := range p.g.Blocks {
		if cc, ok := b.Stmt.(*ast.CaseClause); ok && b.Kind == cfg.KindSwitchNextCase && typeSwitch[cc] != nil {
			nextCases[cc] = append(nextCases[cc], b) // in creation order: one per case type
		}
	}
	for _, b := range p.g.Blocks {
		for i, n := range b.Nodes {
			ref := nodeRef{int(b.Index), i}
			p.indexCalls(n, ref)
			if ret, ok := n.(*ast.ReturnStmt); ok {
				p.returns[ret] = ref
			}
		}
		if len(b.Succs) != 2 {
			continue
		}
		body, next := b.Succs[0], b.Succs[1]
		cc, ok := next.Stmt.(*ast.CaseClause)
		if !ok || next.Kind != cfg.KindSwitchNextCase || body.Kind != cfg.KindSwitchCaseBody || body.Stmt != cc {
			continue
		}
		sw := typeSwitch[cc]
		if sw == nil {
			continue
		}
		for k, nb := range nextCases[cc] {
			if nb == next && k < len(cc.List) {
				if x := typeSwitchOperand(sw); x != nil {
					p.typeTests[b] = typeTest{err: x, cc: cc, typ: cc.List[k]}
				}
			}
		}
	}
}

// indexCalls records the calls a node evaluates where it stands: not those
// of nested function literals, nor the deferred or spawned call itself.
func (p *pathAnalysis) indexCalls(n ast.Node, ref nodeRef) {
	var skip *ast.CallExpr
	switch n := n.(type) {
	case *ast.DeferStmt:
		skip = n.Call
	case *ast.GoStmt:
		skip = n.Call
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n != skip {
				p.calls[n] = ref
			}
		}
		return true
	})
}

// typeSwitchOperand returns x in switch x.(type) or switch v := x.(type).
func typeSwitchOperand(sw *ast.TypeSwitchStmt) ast.Expr {
	var e ast.Expr
	switch a := sw.Assign.(type) {
	case *ast.ExprStmt:
		e = a.X
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			e = a.Rhs[0]
		}
	}
	if ta, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok {
		return ta.X
	}
	return nil
}

// solve runs the forward fixpoint from the entry block.
func (p *pathAnalysis) solve() {
	r := dataflow.Forward(p.g, dataflow.Problem[*flowState]{
		Lattice: pathLattice{},
		Entry:   newFlowState(),
		Block: func(b *cfg.Block, in *flowState) *flowState {
			out := in.clone()
			for _, n := range b.Nodes {
				p.transfer(out, n)
			}
			out.normalize()
			return out
		},
		Edge: func(b *cfg.Block, i int, out *flowState) (*flowState, bool) {
			st := out.clone()
			p.edge(st, b, i)
			st.normalize()
			return st, !st.infeasible
		},
		MaxVisits: maxVisits,
	})
	p.entry, p.converged = r.In, r.Converged
}

// stateBefore returns the state just before the node at ref, or nil.
func (p *pathAnalysis) stateBefore(ref nodeRef) *flowState {
	if !p.converged || p.entry[ref.block] == nil {
		return nil
	}
	st := p.entry[ref.block].clone()
	for _, n := range p.g.Blocks[ref.block].Nodes[:ref.node] {
		p.transfer(st, n)
	}
	return st
}

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
		if isErrorish(v.Type()) {
			u.isErr = true
			u.facts = p.errValue(st, rhs[i])
		} else if isBool(v.Type()) {
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

// tupleTest returns the test whose result the second value of rhs holds.
func (p *pathAnalysis) tupleTest(rhs, first ast.Expr) *errTest {
	if t, done := p.tests[rhs]; done {
		return t
	}
	var t *errTest
	switch e := ast.Unparen(rhs).(type) {
	case *ast.CallExpr:
		if fn := StaticCallee(p.m.info, e); IsPkgFunc(fn, "errors", "AsType") && len(e.Args) == 1 {
			// x, ok := errors.AsType[T](err): errors.As with the target's
			// type as a type argument.
			if tup, ok := p.m.info.TypeOf(e).(*types.Tuple); ok && tup.Len() == 2 && isErrorish(p.m.info.TypeOf(e.Args[0])) {
				t = p.assertTest(e.Args[0], tup.At(0).Type(), p.varOf(first), e)
				if t != nil && t.ifTrue == effTransient {
					t.exact = true
				}
			}
		} else if fn != nil && p.m.ClassifierKind(fn) == DelayClassifier {
			if arg := errorArg(p.m.info, fn, e); arg != nil && isErrorish(p.m.info.TypeOf(arg)) {
				t = &errTest{err: p.errVar(arg), ifTrue: effTransient, ifFalse: effFailed, origin: e, exact: true}
				if d := p.varOf(first); d != nil && IsDuration(d.Type()) {
					t.delay = d
				}
			}
		}
	case *ast.TypeAssertExpr:
		if e.Type != nil && isErrorish(p.m.info.TypeOf(e.X)) {
			t = p.assertTest(e.X, p.m.info.TypeOf(e.Type), p.varOf(first), e)
		}
	}
	p.tests[rhs] = t
	return t
}

// assertTest is the test of err.(T) or of a type switch case T.
func (p *pathAnalysis) assertTest(x ast.Expr, typ types.Type, bound *types.Var, origin ast.Node) *errTest {
	if !isValid(typ) {
		return nil
	}
	t := &errTest{err: p.errVar(x), origin: origin}
	if p.m.IsCarrier(typ) {
		t.ifTrue, t.ifFalse = effTransient, effFailed
		if bound != nil && p.m.IsCarrier(bound.Type()) {
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
	fn := StaticCallee(info, call)
	switch {
	case (IsPkgFunc(fn, "errors", "As") || IsPkgFunc(fn, "errors", "Is")) && len(call.Args) == 2 && !isErrorish(info.TypeOf(call.Args[0])):
		return nil // a broken operand tells nothing
	case IsPkgFunc(fn, "errors", "As") && len(call.Args) == 2:
		t := &errTest{err: p.errVar(call.Args[0]), origin: call}
		ptr, _ := info.TypeOf(call.Args[1]).(*types.Pointer)
		if ptr != nil && p.m.IsCarrier(ptr.Elem()) {
			t.ifTrue, t.ifFalse, t.exact = effTransient, effFailed, true
			if u, ok := ast.Unparen(call.Args[1]).(*ast.UnaryExpr); ok && u.Op == token.AND {
				t.carrier = p.varOf(u.X)
			}
		} else {
			t.ifTrue = effIdentified
		}
		return t
	case IsPkgFunc(fn, "errors", "Is") && len(call.Args) == 2:
		if tv, ok := info.Types[call.Args[1]]; ok && tv.IsNil() {
			return nil
		}
		return &errTest{err: p.errVar(call.Args[0]), ifTrue: effIdentified, origin: call}
	}
	if !p.isPredicate(fn, call) {
		return nil
	}
	for _, a := range call.Args {
		if isErrorish(info.TypeOf(a)) {
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
	if !isBool(p.m.info.TypeOf(call)) {
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
	re := p.m.cfg.TransientPredicate
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
		if isErrorish(sig.Params().At(i).Type()) {
			return call.Args[i]
		}
	}
	return nil
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
		fn := StaticCallee(info, e)
		var wrapped []ast.Expr
		always := false
		switch {
		case IsPkgFunc(fn, "fmt", "Errorf"):
			wrapped, always = WrappedOperands(info, e), true
		case IsPkgFunc(fn, "errors", "Join"):
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
			r.zeroDelay = r.zeroDelay && st.zeroDelay(v)
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
		if tag, ok := p.tagOf[e]; ok && !isNilExpr(info, e) {
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
				if !isNilExpr(info, n.X) && !isNilExpr(info, n.Y) {
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
	fn := StaticCallee(p.m.info, call)
	if IsPkgFunc(fn, "errors", "As") || IsPkgFunc(fn, "errors", "Is") || IsPkgFunc(fn, "errors", "AsType") {
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
	if !isValid(t) {
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
					if v, ok := p.m.info.Uses[id].(*types.Var); ok && !v.IsField() && isErrorish(v.Type()) {
						vs = append(vs, v)
					}
				}
				return true
			})
			return false
		case *ast.Ident:
			if v, ok := p.m.info.Uses[n].(*types.Var); ok && !v.IsField() && isErrorish(v.Type()) {
				vs = append(vs, v)
			}
		}
		return true
	})
	return vs
}

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
	if isBool(p.m.info.TypeOf(cond)) {
		p.refine(st, cond, truth)
	}
}

// refineType refines st by one type-switch case test.
func (p *pathAnalysis) refineType(st *flowState, tt typeTest, truth bool) {
	info := p.m.info
	if !isErrorish(info.TypeOf(tt.err)) {
		return
	}
	if isNilExpr(info, tt.typ) {
		p.nilCheck(st, tt.err, !truth)
		return
	}
	var bound *types.Var
	if len(tt.cc.List) == 1 {
		bound, _ = info.Implicits[tt.cc].(*types.Var)
	}
	if t := p.assertTest(tt.err, info.TypeOf(tt.typ), bound, tt.typ); t != nil {
		st.apply(p.memoTest(tt.typ, t), truth)
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
		if isBool(v.Type()) && p.followed(v) {
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
				if f.producer || !f.excluded {
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
			((t.delay != nil && probe.zero[t.delay]) || (t.carrier != nil && probe.zero[t.carrier])) {
			f := st.errs[t.err]
			f.zeroDelay = true
			st.errs[t.err] = f
		}
		v := p.varOf(ok)
		if v == nil || !isBool(v.Type()) {
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
		case isNilExpr(info, y):
			p.nilCheck(st, x, nonNil)
			return
		case isNilExpr(info, x):
			p.nilCheck(st, y, nonNil)
			return
		case !nonNil && isErrorish(info.TypeOf(x)) && isErrorish(info.TypeOf(y)):
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
		if v := p.varOf(e); v != nil && IsDuration(v.Type()) {
			return v
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || len(e.Args) != 0 || sel.Sel.Name != p.m.cfg.CarrierMethod || !IsDuration(p.m.info.TypeOf(e)) {
			return nil
		}
		if v := p.varOf(sel.X); v != nil && p.m.IsCarrier(v.Type()) {
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
	if !isErrorish(p.m.info.TypeOf(e)) {
		return
	}
	v := p.errVar(e)
	f := st.errs[v]
	if nonNil {
		f.nonNil = true
		if !f.producer && !f.excluded {
			if call, ok := p.mayBeRetryable(e); ok {
				f.producer, f.pOrigin = true, call
			}
		}
	} else {
		f.nonNil, f.producer, f.transient = false, false, false
		f.zeroDelay = v != nil // a nil error carries no retry intent
	}
	st.errs[v] = f
}

// mayBeRetryable is Model.MayBeRetryable, memoized, with the producer call
// the value comes from when there is a single one.
func (p *pathAnalysis) mayBeRetryable(e ast.Expr) (*ast.CallExpr, bool) {
	if ok, done := p.isRetrying[e]; done {
		return p.retryable[e], ok
	}
	ok := p.m.MayBeRetryable(e)
	var call *ast.CallExpr
	if ok {
		call = p.m.producerCallOf(e, 0)
	}
	p.isRetrying[e], p.retryable[e] = ok, call
	return call, ok
}

// producerCallOf returns the retryable producer call the value of e comes
// from, when there is one and only one.
func (m *Model) producerCallOf(e ast.Expr, depth int) *ast.CallExpr {
	if depth > maxDepth {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if m.IsProducerCall(e) {
			return e
		}
		fn := StaticCallee(m.info, e)
		var inner []ast.Expr
		switch {
		case IsPkgFunc(fn, "fmt", "Errorf"):
			inner = WrappedOperands(m.info, e)
		case IsPkgFunc(fn, "errors", "Join"):
			inner = e.Args
		}
		var found *ast.CallExpr
		for _, x := range inner {
			if c := m.producerCallOf(x, depth+1); c != nil {
				if found != nil {
					return nil
				}
				found = c
			}
		}
		return found
	case *ast.Ident:
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return nil
		}
		var found *ast.CallExpr
		for _, a := range m.defs().reaching(v, e.Pos()) {
			call, ok := ast.Unparen(a.rhs).(*ast.CallExpr)
			if !ok {
				continue
			}
			var c *ast.CallExpr
			if a.index >= 0 {
				if m.IsProducerCall(call) {
					c = call
				}
			} else {
				c = m.producerCallOf(call, depth+1)
			}
			if c != nil {
				if found != nil && found != c {
					return nil
				}
				found = c
			}
		}
		return found
	}
	return nil
}

// errVar returns the error variable e names, or nil for any other error
// expression (all of which share the nil key).
func (p *pathAnalysis) errVar(e ast.Expr) *types.Var {
	if v := p.varOf(e); v != nil && isErrorish(v.Type()) {
		return v
	}
	return nil
}

// varOf returns the local or package variable an expression names.
func (p *pathAnalysis) varOf(e ast.Expr) *types.Var {
	v := varOf(p.m.info, e)
	if v == nil || v.IsField() {
		return nil
	}
	return v
}

func isNilExpr(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

func isBool(t types.Type) bool {
	if !isValid(t) {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}
