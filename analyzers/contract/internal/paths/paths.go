// Package paths is the contract model's last stage: it solves the
// transient paths of the bodies the checks judge (those that hold an ack
// call, a Term, a helper settlement, pass a retryable error on, or are
// handlers or candidate handlers), decides when each effect of the
// package's helpers happens (its condition, from the solved paths), and
// lists the bodies by what they hold. It reads every earlier stage.
package paths

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Inputs are what Build reads.
type Inputs struct {
	Fset     *token.FileSet
	Info     *types.Info
	MayRetry bool
	Solve    bool // the gate: a retry or a settlement can be found in the package
	Syn      *syntax.Index
	Msgs     *messages.Table
	Prod     *producers.Result
	Set      *settle.Result
	Hd       *handlers.Result
	Tr       *transient.Result
	Graphs   *cfgs.Graphs
	Defs     func() *defs.Index
	Decls    []*ast.FuncDecl
}

// Result is the solved paths and what the model derives from them. It is
// complete when Build returns and read-only afterwards.
type Result struct {
	fset     *token.FileSet // orders bodies across files (goast.ComparePos)
	info     *types.Info
	mayRetry bool
	syn      *syntax.Index
	msgs     *messages.Table
	prod     *producers.Result
	set      *settle.Result
	hd       *handlers.Result
	tr       *transient.Result
	graphs   *cfgs.Graphs
	defs     func() *defs.Index
	decls    []*ast.FuncDecl

	paths    map[*ast.BlockStmt]*transient.ErrorPaths // the transient paths of the bodies the checks ask about
	diverged []token.Pos                              // bodies on which the path solver did not converge
	ackCalls []*BodyAckCalls                          // the package's ack calls, by body, in source order
	// the bodies by what they hold, in source order
	ackBodies, termBodies, deferredAckBodies []*ast.BlockStmt
	helperSettles                            []*BodyHelperSettles                // calls of helpers whose effects have a known condition
	conds                                    map[*types.Func][]settle.EffectCond // when each effect of set.Effects happens
}

// Build solves, in this order: the paths of the bodies that hold an ack
// call, a Term or a retryable error passed on, and of handlers and
// candidate handlers; the effects' conditions, from those paths; the
// helper settlements whose condition is known, and their bodies' paths.
func Build(in Inputs) *Result {
	m := &Result{fset: in.Fset, info: in.Info, mayRetry: in.MayRetry, syn: in.Syn, msgs: in.Msgs, prod: in.Prod, set: in.Set,
		hd: in.Hd, tr: in.Tr, graphs: in.Graphs, defs: in.Defs, decls: in.Decls}
	if !in.Solve {
		return m
	}
	m.solvePaths()
	m.inferEffectConds(in.Decls)
	m.indexHelperSettles()
	return m
}

// eachCall calls f for every call of the package that a function body
// evaluates, with that body, in source order.
func (m *Result) eachCall(f func(call *ast.CallExpr, body *ast.BlockStmt)) {
	for _, s := range m.syn.Sites {
		if call, ok := s.Node.(*ast.CallExpr); ok && s.Body != nil {
			f(call, s.Body)
		}
	}
}

// Conds returns the conditions of the effects of the package's helpers,
// in the order of settle's Effects.
func (m *Result) Conds() map[*types.Func][]settle.EffectCond { return m.conds }

// ErrorPaths returns the transient-path analysis of body, the body of a
// function declaration or literal (nested literals are functions of their
// own). The model computes it in its Run for every body that holds an ack
// call, passes a retryable error to a call, is a handler or a candidate
// handler, or holds a helper settlement: those are the bodies the checks
// ask about. Any other body is not solved: its analysis knows nothing (At
// answers false), whatever the checks ask.
func (m *Result) ErrorPaths(body *ast.BlockStmt) *transient.ErrorPaths { return m.paths[body] }

// solvePaths indexes the ack calls of the package by body, builds the
// CFG of every body that holds a Term (termbeforedlq orders it against DLQ
// writes), and computes the transient paths of every body the checks ask
// about: those that hold an ack call (barenak, ackretryable) or pass an
// error that may be retryable to a call (retryflatten asks whether its
// classification failed there). Bodies on which the solver does not
// converge are recorded in diverged.
func (m *Result) solvePaths() {
	m.paths = make(map[*ast.BlockStmt]*transient.ErrorPaths)
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
			// holding the defer (settle.DeferredAckAt): that body's paths matter.
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
		for _, s := range m.Settlements(call) {
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
	for _, p := range m.hd.PendingRegistrations() {
		if _, seen := m.paths[p.Body]; !seen && m.mayRetry {
			m.paths[p.Body] = nil
			bodies = append(bodies, p.Body)
		}
	}
	for _, d := range m.decls {
		if _, seen := m.paths[d.Body]; !seen && m.mayRetry && (handlers.IsCandidate(m.info, m.msgs, d) || handlers.IsTypedCandidate(m.info, m.msgs, d)) && len(m.hd.NilReturns(d.Body)) > 0 {
			m.paths[d.Body] = nil
			bodies = append(bodies, d.Body)
		}
	}
	for _, body := range m.hd.MessagelessBodies() {
		if _, seen := m.paths[body]; !seen && m.mayRetry && len(m.hd.NilReturns(body)) > 0 {
			m.paths[body] = nil
			bodies = append(bodies, body)
		}
	}
	slices.SortFunc(bodies, func(a, b *ast.BlockStmt) int { return goast.ComparePos(m.fset, a.Pos(), b.Pos()) })
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
func (m *Result) indexHelperSettles() {
	byBody := make(map[*ast.BlockStmt]*BodyHelperSettles)
	m.eachCall(func(call *ast.CallExpr, body *ast.BlockStmt) {
		if isLitCall(m, call) {
			return
		}
		for _, s := range m.Settlements(call) {
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
func (m *Result) passesRetryable(call *ast.CallExpr) bool {
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
func (m *Result) Diverged() []token.Pos { return m.diverged }
