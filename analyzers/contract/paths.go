package contract

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
	"golang.org/x/tools/go/analysis"
)

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
	ep, _ := m.tr.Solve(body)
	return ep
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
	for body := range m.hd.Handlers() {
		if _, seen := m.paths[body]; !seen {
			m.paths[body] = nil
			bodies = append(bodies, body)
		}
	}
	for _, d := range m.decls {
		if _, seen := m.paths[d.Body]; !seen && m.mayRetry && (handlers.IsCandidate(m.info, m.msgs, d) || handlers.IsTypedCandidate(m.info, m.msgs, d)) && len(m.hd.NilReturns(d.Body)) > 0 {
			m.paths[d.Body] = nil
			bodies = append(bodies, d.Body)
		}
	}
	slices.SortFunc(bodies, func(a, b *ast.BlockStmt) int { return int(a.Pos() - b.Pos()) })
	for _, body := range bodies {
		ep, converged := m.tr.Solve(body)
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
			ep, converged := m.tr.Solve(hb.Body)
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

// exportClassifierFacts exports a ClassifierFact for each classifier of
// the package, in source order.
func (m *Model) exportClassifierFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.tr.Classifiers()) {
		pass.ExportObjectFact(fn, &ClassifierFact{Kind: m.tr.Classifiers()[fn]})
	}
}

// ErrorPaths is the transient-path analysis of one function body.
type ErrorPaths = transient.ErrorPaths

// PathFacts is what holds on every path that reaches a point.
type PathFacts = transient.PathFacts

// TransientPath says why a path is transient.
type TransientPath = transient.TransientPath

// ErrorBranch is the unclassified error branch of a retryable producer.
type ErrorBranch = transient.ErrorBranch

// VarFacts is what holds of one error variable on every path to a point.
type VarFacts = transient.VarFacts

// ClassifierKind says how a classifier function reports retry intent.
type ClassifierKind = transient.ClassifierKind

// The kinds of classifier (transient.ClassifierKind).
const (
	DelayClassifier     = transient.DelayClassifier
	PredicateClassifier = transient.PredicateClassifier
)

// inferHandlerCandidates records, for the package's candidate handlers
// (typed ones included), the nil returns in a retryable producer's error
// branch. It runs after the transient paths are solved.
func (m *Model) inferHandlerCandidates(decls []*ast.FuncDecl) {
	m.candidates = make(map[*types.Func][]ForeignReturn)
	for _, d := range decls {
		if !handlers.IsCandidate(m.info, m.msgs, d) && !handlers.IsTypedCandidate(m.info, m.msgs, d) {
			continue
		}
		paths := m.paths[d.Body]
		for _, ret := range m.hd.NilReturns(d.Body) {
			facts, ok := paths.AtReturn(ret)
			if !ok || facts.ErrorBranch == nil {
				continue
			}
			r := ForeignReturn{Pos: ret.Pos()}
			if b := facts.ErrorBranch; b.Err != nil {
				r.Err = b.Err.Name()
			}
			if b := facts.ErrorBranch; b.Producer != nil {
				r.Producer = goast.CalleeName(b.Producer)
			}
			fn := m.info.Defs[d.Name].(*types.Func)
			m.candidates[fn] = append(m.candidates[fn], r)
		}
	}
}

func (m *Model) exportHandlerCandidateFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.candidates) {
		f := &HandlerCandidateFact{}
		for _, r := range m.candidates[fn] {
			if line, col, ok := m.Offset(fn, r.Pos); ok {
				f.Returns = append(f.Returns, CandidateReturn{Line: line, Col: col, Err: r.Err, Producer: r.Producer})
			}
		}
		if len(f.Returns) > 0 {
			pass.ExportObjectFact(fn, f)
		}
	}
}

// HandlerCandidates returns the function declarations of the package that
// could be handlers registered in another package (exported, a message
// parameter, an error result) and are not known to be handlers here, in
// source order. Only an exported name can be registered from elsewhere.
func (m *Model) HandlerCandidates() []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, d := range m.decls {
		if d.Name.IsExported() && m.hd.HandlerOf(d.Body) == nil && handlers.IsCandidate(m.info, m.msgs, d) {
			out = append(out, d)
		}
	}
	return out
}

// ParamsOf returns the parameters a function type declares, in order (nil
// for an unnamed or blank one).
func (m *Model) ParamsOf(ft *ast.FuncType) []*types.Var { return messages.ParamVars(m.info, ft) }

// Site returns where a position recorded relative to fn's declaration
// (line offset, column) lies, in fn's file: how facts place a site in
// another package.
func (m *Model) Site(fn *types.Func, line, col int) token.Pos { return m.set.SiteIn(fn, line, col) }

// Offset returns pos relative to fn's declaration (line offset, column),
// as Site reads it; ok is false when pos is not in fn's file after it.
func (m *Model) Offset(fn *types.Func, pos token.Pos) (line, col int, ok bool) {
	decl, at := m.fset.Position(fn.Pos()), m.fset.Position(pos)
	if at.Filename != decl.Filename || at.Line < decl.Line {
		return 0, 0, false
	}
	return at.Line - decl.Line, at.Column, true
}

// HandlerCandidateFact marks a function that returns nil in the error
// branch of a retryable producer's error, unclassified: a defect if a
// caller Acks when it returns nil.
type HandlerCandidateFact struct {
	Returns []CandidateReturn
}

// CandidateReturn is one such return: where it is (relative to the
// function's declaration, like Effect's), the error and its producer.
type CandidateReturn struct {
	Line, Col int
	Err       string
	Producer  string
}

func (*HandlerCandidateFact) AFact() {}

func (*HandlerCandidateFact) String() string {
	return "drops a retryable error if a caller acks on nil"
}
