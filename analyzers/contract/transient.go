package contract

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
	"golang.org/x/tools/go/analysis"
)

// Transient paths (CONTRACT.md): code reached only when a retry
// classification succeeded (the ok side of d, ok := RetryDelay(err), the
// true side of errors.As into a carrier, of a retry predicate, a type switch
// case or assertion on a carrier type), or the error branch of a retryable
// producer's error. A classification that fails, an error identified as
// something else (errors.Is, ==, a non-carrier type), and replacing the error
// with a new one end the path. A local variable assigned a constant on a
// transient path (act = retry) makes its tests for that constant
// (switch act { case retry: }, if act == retry) transient when every path
// that can pass them assigned it there (transient_values.go). The analysis
// is a forward dataflow over the function's control-flow graph: a fact
// holds at a point when it holds on every path that reaches it, so
// doubtful points stay out.

// transientState is what the model knows about classifiers in the package.
type transientState struct {
	classifiers map[*types.Func]ClassifierKind
}

// ClassifierKind returns how fn (any package) classifies its error
// argument as transient, or 0 when it does not: a DelayClassifier returns
// (time.Duration, bool) and is ok only when errors.As found a carrier, a
// PredicateClassifier returns a bool that is true only then.
func (m *Model) ClassifierKind(fn *types.Func) ClassifierKind {
	if fn == nil {
		return 0
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.transient.classifiers[fn]
	}
	return m.imported.classifiers[fn]
}

// ErrorPaths is the transient-path analysis of one function body: what
// holds at each call the body evaluates. It is computed whole and never
// changes, so that checks running in parallel can share it.
type ErrorPaths struct {
	at       map[*ast.CallExpr]*callPaths
	atReturn map[*ast.ReturnStmt]*callPaths
}

// callPaths is what holds just before one call.
type callPaths struct {
	facts    PathFacts
	noIntent []*types.Var // error variables whose exact retry classification failed on every path
	vars     map[*types.Var]VarFacts
}

// VarFacts is what holds of one error variable on every path to a point.
type VarFacts struct {
	Nil        bool // it is nil
	NonNil     bool // it is not nil
	Transient  bool // a retry classification of it succeeded
	NoIntent   bool // an exact retry classification of it failed
	Classified bool // it was inspected (on some path) since it was assigned
}

// VarAt returns what holds of the error variable v just before call.
func (ep *ErrorPaths) VarAt(call *ast.CallExpr, v *types.Var) (VarFacts, bool) {
	if ep == nil {
		return VarFacts{}, false
	}
	cp, found := ep.at[call]
	if !found {
		return VarFacts{}, false
	}
	return cp.vars[v], true
}

// PathFacts is what holds on every path that reaches a point.
type PathFacts struct {
	// Transient is set on a transient path.
	Transient *TransientPath
	// ErrorBranch is set in the error branch of a retryable producer's
	// error, where that error was not classified since it was produced.
	ErrorBranch *ErrorBranch
	// ErrorPath is set when some error is known to be non-nil (whatever its
	// origin) or classified as transient.
	ErrorPath bool
	// ZeroDelay is set when a delay is known to be <= 0: guarded by d <= 0,
	// d == 0, or the false side of d > 0; or a classification of an error
	// succeeded where, were it to, its delay is known to be <= 0: after
	// the false side of ok && d > 0 (d, ok a classification of the same,
	// unchanged error), or after a failed classification joined such paths.
	ZeroDelay bool
}

// TransientPath says why a path is transient.
type TransientPath struct {
	// Err is the error variable, nil when the error is not held in one.
	Err *types.Var
	// Classified is set when a retry classification succeeded; otherwise
	// the path is the error branch of a retryable producer's error.
	Classified bool
	// Origin is the classification, or the producer call, when every path
	// agrees on one.
	Origin ast.Node
	// Delay is the time.Duration variable the classification bound the
	// delay to (d in d, ok := RetryDelay(err)), or nil.
	Delay *types.Var
	// Carrier is the carrier variable the classification bound (rd in
	// errors.As(err, &rd)), whose delay method yields the delay, or nil.
	Carrier *types.Var
}

// ErrorBranch is the unclassified error branch of a retryable producer.
type ErrorBranch struct {
	// Err is the error variable, nil when the error is not held in one.
	Err *types.Var
	// Producer is the retryable producer's call, when there is one only.
	Producer *ast.CallExpr
}

// ErrorPaths returns the transient-path analysis of body, the body of a
// function declaration or literal (nested literals are functions of their
// own). The model computes it in its Run for every body that holds an ack
// call or passes a retryable error to a call: those are the bodies the
// checks ask about. For any other body it is computed on the spot, from the
// read-only model.
func (m *Model) ErrorPaths(body *ast.BlockStmt) *ErrorPaths {
	if ep, ok := m.paths[body]; ok {
		return ep
	}
	if body == nil || m.info == nil {
		return &ErrorPaths{}
	}
	ep, _ := m.analyzePaths(body)
	return ep
}

// analyzePaths solves the transient paths of body and records the facts
// at each of its calls; converged is false when the solver gave up.
func (m *Model) analyzePaths(body *ast.BlockStmt) (ep *ErrorPaths, converged bool) {
	p := m.solved[body]
	delete(m.solved, body) // solved by the classifier inference, still exact
	if p == nil {
		p = m.newPathAnalysis(body)
	}
	ep = &ErrorPaths{at: make(map[*ast.CallExpr]*callPaths), atReturn: make(map[*ast.ReturnStmt]*callPaths)}
	if !p.converged {
		return ep, false
	}
	byNode := make(map[nodeRef][]*ast.CallExpr)
	for call, ref := range p.calls {
		byNode[ref] = append(byNode[ref], call)
	}
	for _, b := range p.g.Blocks {
		in := p.entry[b.Index]
		if in == nil {
			continue
		}
		st := in.clone()
		for i, n := range b.Nodes {
			if ret, ok := n.(*ast.ReturnStmt); ok {
				ep.atReturn[ret] = &callPaths{facts: p.facts(st)}
			}
			if calls := byNode[nodeRef{int(b.Index), i}]; len(calls) > 0 {
				cp := &callPaths{facts: p.facts(st), vars: make(map[*types.Var]VarFacts)}
				for v, f := range st.errs {
					if v != nil && f.noIntent {
						cp.noIntent = append(cp.noIntent, v)
					}
					if v != nil {
						cp.vars[v] = VarFacts{Nil: f.isNil, NonNil: f.nonNil, Transient: f.transient, NoIntent: f.noIntent, Classified: f.classified || f.excluded}
					}
				}
				for _, call := range calls {
					ep.at[call] = cp
				}
			}
			p.transfer(st, n)
		}
	}
	return ep, true
}

// At returns what holds on every path that reaches call, just before the
// statement or condition holding it runs. ok is false when call is not
// evaluated by the body itself (deferred, spawned with go, inside a nested
// function literal), is unreachable, or the analysis gave up.
func (ep *ErrorPaths) At(call *ast.CallExpr) (facts PathFacts, ok bool) {
	if ep == nil {
		return PathFacts{}, false
	}
	cp, found := ep.at[call]
	if !found {
		return PathFacts{}, false
	}
	return cp.facts, true
}

// AtReturn returns what holds on every path that reaches a return
// statement of the body, just before it runs.
func (ep *ErrorPaths) AtReturn(ret *ast.ReturnStmt) (facts PathFacts, ok bool) {
	if ep == nil {
		return PathFacts{}, false
	}
	cp, found := ep.atReturn[ret]
	if !found {
		return PathFacts{}, false
	}
	return cp.facts, true
}

// NoRetryIntent reports whether, on every path to call, an exact retry
// classification of v (a delay classifier, errors.As into a carrier, a
// predicate known by its fact) failed since v was last assigned: there v
// provably holds no retry carrier.
func (ep *ErrorPaths) NoRetryIntent(call *ast.CallExpr, v *types.Var) bool {
	if ep == nil || v == nil {
		return false
	}
	cp, found := ep.at[call]
	return found && slices.Contains(cp.noIntent, v)
}

// solvePaths indexes the ack calls of the package by body, builds the
// CFG of every body that holds a Term (termbeforedlq orders it against DLQ
// writes), and computes the transient paths of every body the checks ask
// about: those that hold an ack call (barenak, ackretryable) or pass an
// error that may be retryable to a call (retryflatten asks whether its
// classification failed there). Bodies on which the solver does not
// converge are recorded in diverged.
func (m *Model) solvePaths() {
	m.paths = make(map[*ast.BlockStmt]*ErrorPaths)
	if m.info == nil {
		return
	}
	var bodies []*ast.BlockStmt
	byBody := make(map[*ast.BlockStmt]*BodyAckCalls)
	seen := make(map[*[]*ast.BlockStmt]map[*ast.BlockStmt]bool)
	// mark adds body, once, to list, and builds its CFG for the ordering checks.
	mark := func(list *[]*ast.BlockStmt, body *ast.BlockStmt) {
		if seen[list] == nil {
			seen[list] = make(map[*ast.BlockStmt]bool)
		}
		if !seen[list][body] {
			seen[list][body] = true
			m.graphs.Of(body)
			*list = append(*list, body)
		}
	}
	m.eachCall(func(call *ast.CallExpr, body *ast.BlockStmt) {
		ack, isAck := m.msgs.AsAckCall(call)
		if isAck {
			bc := byBody[body]
			if bc == nil {
				bc = &BodyAckCalls{Body: body}
				byBody[body] = bc
				m.ackCalls = append(m.ackCalls, bc)
			}
			bc.Calls = append(bc.Calls, ack)
			// A deferred literal's Ack runs at the returns of the body
			// holding the defer (deferred.go): that body's paths matter.
			if outer, ok := m.syn.Deferred[body]; ok && ack.IsAck() && !slices.Contains(m.deferredAckBodies, outer) {
				m.deferredAckBodies = append(m.deferredAckBodies, outer)
				if _, seen := m.paths[outer]; !seen {
					m.paths[outer] = nil
					bodies = append(bodies, outer)
				}
			}
		}
		if _, ok := m.set.CertainHelperSettle(call, profile.Done); ok {
			mark(&m.ackBodies, body)
		}
		for _, s := range m.settlements(call) {
			switch {
			case s.Settlement == profile.Terminate:
				mark(&m.termBodies, body)
			case s.Settlement == profile.Done && m.set.IsCertainAck(call, s):
				mark(&m.ackBodies, body)
			}
		}
		if _, seen := m.paths[body]; !seen && (isAck || m.mayRetry && m.passesRetryable(call)) {
			m.paths[body] = nil
			bodies = append(bodies, body)
		}
	})
	for body := range m.handlers {
		if _, seen := m.paths[body]; !seen {
			m.paths[body] = nil
			bodies = append(bodies, body)
		}
	}
	for _, d := range m.decls {
		if _, seen := m.paths[d.Body]; !seen && m.mayRetry && (m.isHandlerCandidate(d) || m.isTypedHandlerCandidate(d)) && len(m.NilReturns(d.Body)) > 0 {
			m.paths[d.Body] = nil
			bodies = append(bodies, d.Body)
		}
	}
	slices.SortFunc(bodies, func(a, b *ast.BlockStmt) int { return int(a.Pos() - b.Pos()) })
	for _, body := range bodies {
		ep, converged := m.analyzePaths(body)
		if !converged {
			m.diverged = append(m.diverged, body.Pos())
		}
		m.paths[body] = ep
	}
}

// indexHelperSettles lists the calls of helpers whose effects have a
// known condition (inferEffectConds has run), by body, and solves the
// transient paths of the bodies that hold one.
func (m *Model) indexHelperSettles() {
	byBody := make(map[*ast.BlockStmt]*BodyHelperSettles)
	m.eachCall(func(call *ast.CallExpr, body *ast.BlockStmt) {
		if isLitCall(m, call) {
			return
		}
		for _, s := range m.settlements(call) {
			if !s.Helper || s.Name == "" || s.Cond == settle.CondUnknown {
				continue
			}
			hb := byBody[body]
			if hb == nil {
				hb = &BodyHelperSettles{Body: body}
				byBody[body] = hb
				m.helperSettles = append(m.helperSettles, hb)
			}
			hb.Calls = append(hb.Calls, HelperSettle{Call: call, Name: s.Name, Settlement: s.Settlement,
				Cond: s.Cond, ErrArg: s.ErrArg, Inner: s.Inner, Msg: s.Msg})
		}
	})
	for _, hb := range m.helperSettles {
		if _, done := m.paths[hb.Body]; !done {
			ep, converged := m.analyzePaths(hb.Body)
			if !converged {
				m.diverged = append(m.diverged, hb.Body.Pos())
			}
			m.paths[hb.Body] = ep
		}
	}
}

// passesRetryable reports whether a call takes an error variable that may
// be retryable.
func (m *Model) passesRetryable(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		var found bool
		ast.Inspect(a, func(n ast.Node) bool {
			if found {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			if v, ok := m.info.Uses[id].(*types.Var); ok && m.prod.MayBeRetryable(id) && gotypes.IsErrorish(v.Type()) {
				found = true
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// Diverged returns the positions of the function bodies on which the
// transient-path solver did not converge: the checks get no facts there.
// It is empty on every test package and example; a test keeps it so.
func (m *Model) Diverged() []token.Pos { return m.diverged }

// facts summarizes a state, choosing deterministically among errors.
func (p *pathAnalysis) facts(s *flowState) PathFacts {
	keys := make([]*types.Var, 0, len(s.errs))
	for k := range s.errs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a == nil || b == nil {
			return b == nil && a != nil
		}
		return a.Pos() < b.Pos()
	})
	var out PathFacts
	rank := -1
	for _, k := range keys {
		f := s.errs[k]
		if f.nonNil || f.transient || f.producer {
			out.ErrorPath = true
		}
		if f.producer && !f.classified && out.ErrorBranch == nil {
			out.ErrorBranch = &ErrorBranch{Err: k, Producer: f.pOrigin}
		}
		switch {
		case f.transient:
			r := 1
			if f.delay != nil || f.carrier != nil {
				r = 2
			}
			if r > rank {
				rank = r
				out.Transient = &TransientPath{Err: k, Classified: true, Delay: f.delay, Carrier: f.carrier}
				if f.tOrigin != nil {
					out.Transient.Origin = f.tOrigin
				}
			}
		case f.producer:
			if rank < 0 {
				rank = 0
				out.Transient = &TransientPath{Err: k}
				if f.pOrigin != nil {
					out.Transient.Origin = f.pOrigin
				}
				if k != nil && p.m.prod.IsCarrier(k.Type()) {
					out.Transient.Carrier = k // a non-nil carrier: its delay is at hand
				}
			}
		}
	}
	out.ZeroDelay = len(s.zero) > 0
	return out
}

// DelayExpr returns the source text of the delay a transient path's
// classification bound, when it is in scope at pos: "d", or
// "rd.RetryDelay()" for a carrier variable; "" otherwise.
func (m *Model) DelayExpr(t *TransientPath, pos token.Pos) string {
	if t == nil || m.pkg == nil {
		return ""
	}
	v, suffix := t.Delay, ""
	if v == nil && t.Carrier != nil {
		v, suffix = t.Carrier, "."+m.cfg.CarrierMethod+"()"
	}
	if v == nil || v.Name() == "_" || v.Name() == "" {
		return ""
	}
	scope := m.pkg.Scope().Innermost(pos)
	if scope == nil {
		return ""
	}
	if _, obj := scope.LookupParent(v.Name(), pos); obj != v {
		return ""
	}
	return v.Name() + suffix
}

// inferClassifiers finds, to a fixpoint, the package's functions that
// classify an error as transient: func(error...) (time.Duration, bool)
// whose ok is true only where a retry classification of the error
// succeeded, and func(error...) bool that is true only there.
func (m *Model) inferClassifiers(decls []*ast.FuncDecl) {
	m.transient.classifiers = make(map[*types.Func]ClassifierKind)
	m.solved = make(map[*ast.BlockStmt]*pathAnalysis)
	type candidate struct {
		decl  *ast.FuncDecl
		fn    *types.Func
		kind  ClassifierKind
		param *types.Var
	}
	var cands []candidate
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil {
			continue
		}
		sig := fn.Type().(*types.Signature)
		kind := classifierShape(sig)
		if kind == 0 {
			continue
		}
		for i := 0; i < sig.Params().Len(); i++ {
			if p := sig.Params().At(i); gotypes.IsErrorish(p.Type()) {
				cands = append(cands, candidate{d, fn, kind, p})
				break
			}
		}
	}
	for round := 0; round < defs.MaxDepth; round++ {
		changed := false
		for _, c := range cands {
			if m.transient.classifiers[c.fn] == 0 && m.classifies(c.decl.Body, c.kind, c.param) {
				m.transient.classifiers[c.fn] = c.kind
				m.dropSolvedUsing(c.fn)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// dropSolvedUsing forgets the solutions kept for bodies that name fn, a
// function just found to be a classifier: solved before, they did not see
// it as one. The solutions kept are exact otherwise: a solve reads the
// producers, the flow index and the CFGs, final before the classifier
// inference starts, and the classifiers of the functions it calls.
func (m *Model) dropSolvedUsing(fn *types.Func) {
	for body := range m.solved {
		ast.Inspect(body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && m.info.Uses[id] == fn {
				delete(m.solved, body)
				return false
			}
			return true
		})
	}
}

// classifierShape returns the kind of classifier a signature could be.
func classifierShape(sig *types.Signature) ClassifierKind {
	res := sig.Results()
	switch {
	case res.Len() == 1 && isBool(res.At(0).Type()):
		return PredicateClassifier
	case res.Len() == 2 && gotypes.IsDuration(res.At(0).Type()) && isBool(res.At(1).Type()):
		return DelayClassifier
	}
	return 0
}

// classifies reports whether every return of body that can report true
// (the ok of a delay classifier, a predicate's result) does so only where
// a retry classification of param succeeded, and one return can.
func (m *Model) classifies(body *ast.BlockStmt, kind ClassifierKind, param *types.Var) bool {
	p := m.solved[body]
	if p == nil {
		p = m.newPathAnalysis(body)
		if m.solved != nil {
			m.solved[body] = p // for the next round and the checks, unless dropSolvedUsing drops it
		}
	}
	if !p.converged {
		return false
	}
	canBeTrue, ok := false, true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			ref, found := p.returns[n]
			if !found {
				return false
			}
			st := p.stateBefore(ref)
			if st == nil {
				return false // unreachable
			}
			var result ast.Expr
			switch {
			case kind == PredicateClassifier && len(n.Results) == 1:
				result = n.Results[0]
			case kind == DelayClassifier && len(n.Results) == 2:
				result = n.Results[1]
			case kind == DelayClassifier && len(n.Results) == 1:
				// return RetryDelay(err): another delay classifier of param.
				call, isCall := ast.Unparen(n.Results[0]).(*ast.CallExpr)
				if !isCall {
					ok = false
					return false
				}
				fn := gotypes.StaticCallee(m.info, call)
				if m.ClassifierKind(fn) != DelayClassifier {
					ok = false
				} else if arg := errorArg(m.info, fn, call); arg == nil || p.errVar(arg) != param {
					ok = false
				}
				canBeTrue = true
				return false
			default:
				ok = false // bare return of named results: not followed
				return false
			}
			if isFalse(m.info, result) {
				return false
			}
			canBeTrue = true
			probe := st.clone()
			p.refine(probe, result, true)
			if !probe.errs[param].transient {
				ok = false
			}
			return false
		}
		return true
	})
	return ok && canBeTrue
}

func isFalse(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// exportClassifierFacts exports a ClassifierFact for each classifier of
// the package, in source order.
func (m *Model) exportClassifierFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.transient.classifiers) {
		pass.ExportObjectFact(fn, &ClassifierFact{Kind: m.transient.classifiers[fn]})
	}
}
