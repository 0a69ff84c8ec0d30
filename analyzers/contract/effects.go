package contract

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Effects of a helper (CONTRACT.md): a function that settles a message it
// receives as a parameter, on some path, directly or through another
// helper or a function literal it calls, has that effect on that
// parameter. A call of it counts as that settlement at the call site, with
// the inner settlement as a related location. Known across packages
// through EffectsFact. The condition under which an effect happens (on the
// helper's error parameters) is not inferred yet: every effect is "on some
// path".

// helperEffect is one settlement of a message parameter inside a function of
// the package, with where it happens (the ack call, or the call of the
// helper that makes it).
type helperEffect struct {
	param      int
	settlement profile.Settlement
	site       token.Pos
	call       *ast.CallExpr // the settling call in the function's own body (this package only)
	cond       EffectCond
}

// litEffects is what a function literal settles: its parameters, or
// messages it captures.
type litEffects struct {
	params   []helperEffect
	captured []capturedEffect
}

type capturedEffect struct {
	msg        ast.Expr
	settlement profile.Settlement
	site       token.Pos
}

// settlement is one settlement a call makes of a message.
type settlement struct {
	cond       EffectCond // for a helper's effect: when it happens
	errArg     ast.Expr   // for a helper's effect: the argument of its error parameter, if any
	msg        ast.Expr   // the message settled: the receiver, an argument, or a captured message
	settlement profile.Settlement
	name       string    // the method or helper as written; empty for a function literal called on the spot
	helper     bool      // the settlement happens inside a called function or literal
	inner      token.Pos // the settlement inside the helper, when known
	writes     bool      // the helper also writes a DLQ on some path
}

// settlements returns the settlements call makes: an ack method call, a
// call of a function (any package) with effects on the messages passed to
// it, or a call of a function literal (directly or through a local
// variable) that settles a parameter or a message it captures. Effects of
// a helper come in parameter order.
func (m *Model) settlements(call *ast.CallExpr) []settlement {
	if m.info == nil || call == nil || !m.maySettle {
		return nil
	}
	if ack, ok := m.msgs.AsAckCall(call); ok {
		if ack.Settlement == profile.Progress {
			return nil
		}
		return []settlement{{msg: ack.Recv, settlement: ack.Settlement, name: ack.Method}}
	}
	var out []settlement
	name, ident := goast.CalledName(call.Fun)
	if !m.effectNamed(name) {
		// No function of that name has effects: only a func value bound to
		// a literal can settle here.
		if name != "" && (!ident || !defs.MayBeFuncValue(m.info, call.Fun)) {
			return nil
		}
	} else if fn := gotypes.StaticCallee(m.info, call); fn != nil {
		if _, isIface := gotypes.RecvIsInterface(fn); isIface {
			return nil
		}
		effects := m.effectsOf(fn)
		if len(effects) == 0 {
			return nil
		}
		errParam := firstErrorParam(fn)
		for _, e := range effects {
			if e.param < len(call.Args) {
				s := settlement{msg: call.Args[e.param], settlement: e.settlement, name: goast.CalleeText(call.Fun),
					helper: true, inner: e.site, writes: m.dlq.IsDLQWriter(fn), cond: e.cond}
				if errParam >= 0 && errParam < len(call.Args) {
					s.errArg = call.Args[errParam]
				}
				out = append(out, s)
			}
		}
		return out
	}
	if lit := m.funcLitOf(call.Fun); lit != nil {
		le := m.funcLitEffects(lit)
		writes := m.dlq.FuncLitWritesDLQ(lit)
		for _, e := range le.params {
			if e.param < len(call.Args) {
				out = append(out, settlement{msg: call.Args[e.param], settlement: e.settlement, name: goast.CalleeText(call.Fun),
					helper: true, inner: e.site, writes: writes})
			}
		}
		for _, c := range le.captured {
			out = append(out, settlement{msg: c.msg, settlement: c.settlement, name: goast.CalleeText(call.Fun),
				helper: true, inner: c.site, writes: writes})
		}
	}
	return out
}

// effectNamed reports whether a function of that name, in the package or
// another, has effects: the cheap test before a call's callee is looked up.
func (m *Model) effectNamed(name string) bool {
	return m.effectNames[name] || m.imported.effectNames[name]
}

// effectsOf returns the effects of fn (any package), in parameter order.
func (m *Model) effectsOf(fn *types.Func) []helperEffect {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.effects[fn]
	}
	f := m.imported.effects[fn]
	if f == nil {
		return nil
	}
	out := make([]helperEffect, len(f.Effects))
	for i, e := range f.Effects {
		out[i] = helperEffect{param: e.Param, settlement: e.Settlement, site: m.siteIn(fn, e.Line, e.Col), cond: e.Cond}
	}
	return out
}

// siteIn turns a place recorded relative to fn's declaration (lines after
// the line of its name, and a column) back into a position, or fn's own
// position when the file does not have it.
func (m *Model) siteIn(fn *types.Func, line, col int) token.Pos {
	tf := m.fset.File(fn.Pos())
	if tf == nil || !fn.Pos().IsValid() {
		return fn.Pos()
	}
	at := tf.Line(fn.Pos()) + line
	if line < 0 || at > tf.LineCount() || col < 1 {
		return fn.Pos()
	}
	start := tf.LineStart(at)
	end := tf.Base() + tf.Size()
	if at < tf.LineCount() {
		end = int(tf.LineStart(at + 1))
	}
	if pos := int(start) + col - 1; pos < end {
		return token.Pos(pos)
	}
	return start
}

// siteInFile returns the position at line and column of the file named
// base in fn's package directory, or fn's own position.
func (m *Model) siteInFile(fn *types.Func, base string, line, col int) token.Pos {
	declFile := m.fset.File(fn.Pos())
	if declFile == nil {
		return fn.Pos()
	}
	dir := filepath.Dir(declFile.Name())
	pos := fn.Pos()
	m.fset.Iterate(func(tf *token.File) bool {
		if tf.Name() != filepath.Join(dir, base) || line < 1 || line > tf.LineCount() || col < 1 {
			return true
		}
		start := tf.LineStart(line)
		pos = start + token.Pos(col-1)
		return false
	})
	return pos
}

// mayTermParams returns the indexes of fn's message parameters that fn (any
// package) may Term on some path, directly or through other helpers.
func (m *Model) mayTermParams(fn *types.Func) []int {
	var out []int
	for _, e := range m.effectsOf(fn) {
		if e.settlement == profile.Terminate {
			out = append(out, e.param)
		}
	}
	return out
}

// mayTermSite returns where the may-Term helper fn Terms its message (or
// calls the helper that does), or fn's own position when the exact place
// is not known in this run.
func (m *Model) mayTermSite(fn *types.Func) token.Pos {
	for _, e := range m.effectsOf(fn) {
		if e.settlement == profile.Terminate {
			return e.site
		}
	}
	return token.NoPos
}

// funcLitEffects returns what a function literal settles.
func (m *Model) funcLitEffects(lit *ast.FuncLit) *litEffects {
	if le, ok := m.litEffects[lit]; ok {
		return le
	}
	if m.frozen {
		return &litEffects{} // unreachable: freeze filled the memo for every literal
	}
	if m.litEffects == nil {
		m.litEffects = make(map[*ast.FuncLit]*litEffects)
	}
	le := &litEffects{}
	m.litEffects[lit] = le // cycle guard
	params := messages.ParamVars(m.info, lit.Type)
	for _, call := range m.callsOf(lit.Body) {
		for _, s := range m.settlements(call) {
			msgs := m.msgs.Deps(s.msg)
			hit := false
			for i, p := range params {
				if p != nil && slices.Contains(msgs, p) {
					le.params = addEffect(le.params, helperEffect{param: i, settlement: s.settlement, site: call.Pos(), call: call})
					hit = true
				}
			}
			if hit {
				continue
			}
			for _, v := range msgs {
				if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
					if !slices.ContainsFunc(le.captured, func(c capturedEffect) bool { return c.settlement == s.settlement }) {
						le.captured = append(le.captured, capturedEffect{s.msg, s.settlement, call.Pos()})
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
func addEffect(effects []helperEffect, e helperEffect) []helperEffect {
	i, found := slices.BinarySearchFunc(effects, e, compareEffects)
	if found {
		return effects
	}
	return slices.Insert(effects, i, e)
}

func compareEffects(a, b helperEffect) int {
	if a.param != b.param {
		return a.param - b.param
	}
	return settlementRank(a.settlement) - settlementRank(b.settlement)
}

func settlementRank(s profile.Settlement) int {
	return slices.Index(settlementOrder, s)
}

var settlementOrder = []profile.Settlement{profile.Done, profile.RetryNow, profile.RetryLater, profile.Terminate}

// inferEffects finds, to a fixpoint, the effects of the package's
// functions on their message parameters.
func (m *Model) inferEffects(decls []*ast.FuncDecl) {
	m.effects = make(map[*types.Func][]helperEffect)
	m.effectNames = make(map[string]bool)
	for changed := true; changed; {
		changed = false
		m.litEffects = nil
		for _, d := range decls {
			fn, _ := m.info.Defs[d.Name].(*types.Func)
			if fn == nil || d.Body == nil {
				continue
			}
			var params []*types.Var
			for _, call := range m.callsOf(d.Body) {
				for _, s := range m.settlements(call) {
					if params == nil {
						params = messages.ParamVars(m.info, d.Type)
					}
					msgs := m.msgs.Deps(s.msg)
					for i, p := range params {
						if p == nil || !slices.Contains(msgs, p) {
							continue
						}
						before := len(m.effects[fn])
						m.effects[fn] = addEffect(m.effects[fn], helperEffect{param: i, settlement: s.settlement, site: call.Pos(), call: call})
						m.effectNames[fn.Name()] = true
						changed = changed || len(m.effects[fn]) != before
					}
				}
			}
		}
	}
	m.litEffects = nil
}

// exportEffectsFacts exports an EffectsFact for each function of the
// package with effects, with each settlement's place relative to the
// function's declaration.
func (m *Model) exportEffectsFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.effects) {
		f := &EffectsFact{}
		decl := m.fset.Position(fn.Pos())
		for _, e := range m.effects[fn] {
			fe := Effect{Param: e.param, Settlement: e.settlement, Cond: e.cond}
			if at := m.fset.Position(e.site); e.site.IsValid() && fn.Pos().IsValid() && at.Filename == decl.Filename && at.Line >= decl.Line {
				fe.Line, fe.Col = at.Line-decl.Line, at.Column
			}
			f.Effects = append(f.Effects, fe)
		}
		pass.ExportObjectFact(fn, f)
	}
}

// EffectCond is when a helper's effect happens, judged on the helper's
// first error parameter (CONTRACT.md, "Effects of a helper").
type EffectCond string

// The conditions of CONTRACT.md; the zero value means not known (the
// effect happens through another helper or a function literal), and an
// effect whose condition is not known is not judged at call sites.
const (
	CondUnknown         EffectCond = ""
	CondAlways          EffectCond = "always"
	CondNil             EffectCond = "nil"      // only when the error is nil
	CondNonNilUnclassed EffectCond = "non-nil"  // only when it is non-nil and unclassified
	CondAfterRetry      EffectCond = "retry"    // only after a classification said retry
	CondAfterNoRetry    EffectCond = "no-retry" // only after a classification said no retry intent
)

// unconditional reports whether call runs whenever body runs to its end
// (onEveryPath). A settlement under any other condition (a switch on an
// action, a flag) is not "always".
func unconditional(body *ast.BlockStmt, call *ast.CallExpr) bool {
	found := false
	goast.OnEveryPath(body, func(n ast.Node) bool {
		found = n.Pos() <= call.Pos() && call.End() <= n.End()
		return !found
	})
	return found
}

// firstErrorParam returns the index of fn's first error parameter, or -1.
func firstErrorParam(fn *types.Func) int {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return -1
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if gotypes.IsError(sig.Params().At(i).Type()) {
			return i
		}
	}
	return -1
}

// inferEffectConds decides, from the transient paths of each helper's
// body, when its direct settlements happen. It runs once the paths are
// solved; an effect through another helper keeps CondUnknown.
func (m *Model) inferEffectConds(decls []*ast.FuncDecl) {
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		effects := m.effects[fn]
		if fn == nil || len(effects) == 0 {
			continue
		}
		var errVar *types.Var
		if i := firstErrorParam(fn); i >= 0 {
			errVar = fn.Signature().Params().At(i)
		}
		paths := m.paths[d.Body]
		for i, e := range effects {
			if e.call == nil {
				continue
			}
			if _, direct := m.msgs.AsAckCall(e.call); !direct {
				continue
			}
			if errVar == nil {
				if unconditional(d.Body, e.call) {
					effects[i].cond = CondAlways
				}
				continue
			}
			vf, ok := paths.VarAt(e.call, errVar)
			if !ok {
				continue
			}
			switch {
			case vf.Nil:
				effects[i].cond = CondNil
			case vf.Transient:
				effects[i].cond = CondAfterRetry
			case vf.NoIntent || vf.NonNil && vf.Classified:
				effects[i].cond = CondAfterNoRetry
			case vf.NonNil:
				effects[i].cond = CondNonNilUnclassed
			case !vf.Classified && unconditional(d.Body, e.call):
				effects[i].cond = CondAlways
			}
		}
	}
}
