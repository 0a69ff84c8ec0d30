// Package settle is the contract model's Settlements: what each call does
// to a message (an ack call, a helper with effects on its message
// parameters, a function literal that settles), the effects of the
// package's functions to a fixpoint, certain Settlements, and deferred
// Acks. Effects happen "on some path"; when they happen (their condition)
// is the paths stage's. It reads the syntax, defs, messages and dlq
// stages, the facts of the dependencies and the type information.
package settle

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Imported is what the facts of the dependencies say about effects.
type Imported struct {
	Effects map[*types.Func][]Effect // EffectsFact
	Names   map[string]bool          // the names of the functions in Effects
}

// Inputs are what Build reads.
type Inputs struct {
	Fset      *token.FileSet
	Info      *types.Info
	Pkg       *types.Package
	MaySettle bool // the gate: an ack method is named, or a dependency has effects
	Infer     bool // infer the package's effects (MaySettle, or a handler directive)
	Imported  Imported
	Msgs      *messages.Table
	DLQ       *dlq.Result
	Defs      func() *defs.Index
	CallsOf   func(body *ast.BlockStmt) []*ast.CallExpr
	DeclByFn  map[*types.Func]*ast.FuncDecl
	Decls     []*ast.FuncDecl
	Lits      []*ast.FuncLit
}

// Result is what the package's calls and functions settle. It is complete
// when Build returns and read-only afterwards.
type Result struct {
	fset      *token.FileSet
	info      *types.Info
	pkg       *types.Package
	maySettle bool
	imported  Imported
	msgs      *messages.Table
	dlq       *dlq.Result
	defs      func() *defs.Index
	callsOf   func(body *ast.BlockStmt) []*ast.CallExpr
	declByFn  map[*types.Func]*ast.FuncDecl

	effects     map[*types.Func][]HelperEffect // effects of the package's functions on their message parameters
	effectNames map[string]bool                // the names of the functions in effects
	lits        map[*ast.FuncLit]*LitEffects   // what function literals settle
	frozen      bool                           // set when Build returns: lits holds every literal
}

// Build infers the effects of the package's functions (when in.Infer),
// then what each function literal settles.
func Build(in Inputs) *Result {
	m := &Result{fset: in.Fset, info: in.Info, pkg: in.Pkg, maySettle: in.MaySettle, imported: in.Imported,
		msgs: in.Msgs, dlq: in.DLQ, defs: in.Defs, callsOf: in.CallsOf, declByFn: in.DeclByFn}
	if in.Infer {
		m.inferEffects(in.Decls)
	}
	m.lits = nil
	if m.maySettle {
		for _, lit := range in.Lits {
			m.FuncLitEffects(lit)
		}
	}
	m.frozen = true
	return m
}

// Effects returns the effects of the package's functions, without their
// conditions (the paths stage decides those).
func (m *Result) Effects() map[*types.Func][]HelperEffect { return m.effects }

// Effects of a helper (CONTRACT.md): a function that settles a message it
// receives as a parameter, on some path, directly or through another
// helper or a function literal it calls, has that effect on that
// parameter. A call of it counts as that settlement at the call site, with
// the inner settlement as a related location. Known across packages
// through EffectsFact. The condition under which an effect happens (on the
// helper's error parameters) is not inferred yet: every effect is "on some
// path".

// HelperEffect is one settlement of a message parameter inside a function of
// the package, with where it happens (the ack call, or the call of the
// helper that makes it).
type HelperEffect struct {
	Param      int
	Settlement profile.Settlement
	Site       token.Pos
	Call       *ast.CallExpr // the settling call in the function's own body (this package only)
	Cond       EffectCond
}

// LitEffects is what a function literal settles: its parameters, or
// messages it captures.
type LitEffects struct {
	Params   []HelperEffect
	Captured []capturedEffect
}

type capturedEffect struct {
	Msg        ast.Expr
	Settlement profile.Settlement
	Site       token.Pos
}

// Settlement is one settlement a call makes of a message.
type Settlement struct {
	Cond       EffectCond // for a helper's effect: when it happens
	ErrArg     ast.Expr   // for a helper's effect: the argument of its error parameter, if any
	Msg        ast.Expr   // the message settled: the receiver, an argument, or a captured message
	Settlement profile.Settlement
	Name       string    // the method or helper as written; empty for a function literal called on the spot
	Helper     bool      // the settlement happens inside a called function or literal
	Inner      token.Pos // the settlement inside the helper, when known
	Writes     bool      // the helper also writes a DLQ on some path
	// Local is the helper when it is a function of the package, and Index
	// the effect's index among its Effects: the paths stage knows its
	// condition (Cond is then CondUnknown).
	Local *types.Func
	Index int
}

// Settlements returns the Settlements call makes: an ack method call, a
// call of a function (any package) with effects on the messages passed to
// it, or a call of a function literal (directly or through a local
// variable) that settles a parameter or a message it captures. Effects of
// a helper come in parameter order.
func (m *Result) Settlements(call *ast.CallExpr) []Settlement {
	if m.info == nil || call == nil || !m.maySettle {
		return nil
	}
	if ack, ok := m.msgs.AsAckCall(call); ok {
		if ack.Settlement == profile.Progress {
			return nil
		}
		return []Settlement{{Msg: ack.Recv, Settlement: ack.Settlement, Name: ack.Method}}
	}
	var out []Settlement
	name, ident := goast.CalledName(call.Fun)
	if !m.EffectNamed(name) {
		// No function of that name has effects: only a func value bound to
		// a literal can settle here.
		if name != "" && (!ident || !defs.MayBeFuncValue(m.info, call.Fun)) {
			return nil
		}
	} else if fn := gotypes.StaticCallee(m.info, call); fn != nil {
		if _, isIface := gotypes.RecvIsInterface(fn); isIface {
			return nil
		}
		effects := m.EffectsOf(fn)
		if len(effects) == 0 {
			return nil
		}
		errParam := FirstErrorParam(fn)
		for i, e := range effects {
			if e.Param < len(call.Args) {
				s := Settlement{Msg: call.Args[e.Param], Settlement: e.Settlement, Name: goast.CalleeText(call.Fun),
					Helper: true, Inner: e.Site, Writes: m.dlq.IsDLQWriter(fn), Cond: e.Cond}
				if fn.Origin().Pkg() == m.pkg {
					s.Local, s.Index = fn.Origin(), i // its condition is the paths stage's
				}
				if errParam >= 0 && errParam < len(call.Args) {
					s.ErrArg = call.Args[errParam]
				}
				out = append(out, s)
			}
		}
		return out
	}
	if lit := defs.FuncLitOf(m.info, m.defs, call.Fun); lit != nil {
		le := m.FuncLitEffects(lit)
		writes := m.dlq.FuncLitWritesDLQ(lit)
		for _, e := range le.Params {
			if e.Param < len(call.Args) {
				out = append(out, Settlement{Msg: call.Args[e.Param], Settlement: e.Settlement, Name: goast.CalleeText(call.Fun),
					Helper: true, Inner: e.Site, Writes: writes})
			}
		}
		for _, c := range le.Captured {
			out = append(out, Settlement{Msg: c.Msg, Settlement: c.Settlement, Name: goast.CalleeText(call.Fun),
				Helper: true, Inner: c.Site, Writes: writes})
		}
	}
	return out
}

// EffectNamed reports whether a function of that name, in the package or
// another, has effects: the cheap test before a call's callee is looked up.
func (m *Result) EffectNamed(name string) bool {
	return m.effectNames[name] || m.imported.Names[name]
}

// EffectsOf returns the effects of fn (any package), in parameter order.
func (m *Result) EffectsOf(fn *types.Func) []HelperEffect {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.effects[fn]
	}
	effects := m.imported.Effects[fn]
	if effects == nil {
		return nil
	}
	out := make([]HelperEffect, len(effects))
	for i, e := range effects {
		out[i] = HelperEffect{Param: e.Param, Settlement: e.Settlement, Site: m.SiteIn(fn, e.Line, e.Col), Cond: e.Cond}
	}
	return out
}

// FuncLitEffects returns what a function literal settles.
func (m *Result) FuncLitEffects(lit *ast.FuncLit) *LitEffects {
	if le, ok := m.lits[lit]; ok {
		return le
	}
	if m.frozen {
		return &LitEffects{} // unreachable: Build filled the memo for every literal
	}
	if m.lits == nil {
		m.lits = make(map[*ast.FuncLit]*LitEffects)
	}
	le := &LitEffects{}
	m.lits[lit] = le // cycle guard
	params := messages.ParamVars(m.info, lit.Type)
	for _, call := range m.callsOf(lit.Body) {
		for _, s := range m.Settlements(call) {
			msgs := m.msgs.Deps(s.Msg)
			hit := false
			for i, p := range params {
				if p != nil && slices.Contains(msgs, p) {
					le.Params = addEffect(le.Params, HelperEffect{Param: i, Settlement: s.Settlement, Site: call.Pos(), Call: call})
					hit = true
				}
			}
			if hit {
				continue
			}
			for _, v := range msgs {
				if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
					if !slices.ContainsFunc(le.Captured, func(c capturedEffect) bool { return c.Settlement == s.Settlement }) {
						le.Captured = append(le.Captured, capturedEffect{s.Msg, s.Settlement, call.Pos()})
					}
					break
				}
			}
		}
	}
	return le
}

// addEffect adds e to effects, kept in (parameter, settlement) order,
// unless that settlement of that parameter is already there.
func addEffect(effects []HelperEffect, e HelperEffect) []HelperEffect {
	i, found := slices.BinarySearchFunc(effects, e, compareEffects)
	if found {
		return effects
	}
	return slices.Insert(effects, i, e)
}

func compareEffects(a, b HelperEffect) int {
	if a.Param != b.Param {
		return a.Param - b.Param
	}
	return settlementRank(a.Settlement) - settlementRank(b.Settlement)
}

func settlementRank(s profile.Settlement) int {
	return slices.Index(SettlementOrder, s)
}

var SettlementOrder = []profile.Settlement{profile.Done, profile.RetryNow, profile.RetryLater, profile.Terminate}

// inferEffects finds, to a fixpoint, the effects of the package's
// functions on their message parameters.
func (m *Result) inferEffects(decls []*ast.FuncDecl) {
	m.effects = make(map[*types.Func][]HelperEffect)
	m.effectNames = make(map[string]bool)
	for changed := true; changed; {
		changed = false
		m.lits = nil
		for _, d := range decls {
			fn, _ := m.info.Defs[d.Name].(*types.Func)
			if fn == nil || d.Body == nil {
				continue
			}
			var params []*types.Var
			for _, call := range m.callsOf(d.Body) {
				for _, s := range m.Settlements(call) {
					if params == nil {
						params = messages.ParamVars(m.info, d.Type)
					}
					msgs := m.msgs.Deps(s.Msg)
					for i, p := range params {
						if p == nil || !slices.Contains(msgs, p) {
							continue
						}
						before := len(m.effects[fn])
						m.effects[fn] = addEffect(m.effects[fn], HelperEffect{Param: i, Settlement: s.Settlement, Site: call.Pos(), Call: call})
						m.effectNames[fn.Name()] = true
						changed = changed || len(m.effects[fn]) != before
					}
				}
			}
		}
	}
	m.lits = nil
}
