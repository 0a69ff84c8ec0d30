package settle

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// SettleCall describes a call that settles a message: a Term, an Ack.
type SettleCall struct {
	Call *ast.CallExpr
	// Settlement is what the call tells the broker.
	Settlement profile.Settlement
	// Msg is the message expression settled: the receiver of the ack
	// method, the argument passed to a helper's message parameter, or the
	// message a function literal captures and settles.
	Msg ast.Expr
	// Msgs are the message variables Msg derives from.
	Msgs []*types.Var
	// Name is the ack method (Term, TermWithReason, Ack) or the helper as
	// written; empty for a function literal called on the spot.
	Name string
	// Helper is set when the settlement happens inside a called function
	// or function literal.
	Helper bool
	// Inner is the settlement inside the helper (or the call through
	// which the helper settles); token.NoPos for a direct call or when
	// unknown.
	Inner token.Pos
	// Writes is set when the helper also writes a DLQ on some path: it is
	// judged inside, and at the call it is a settlement only.
	Writes bool
}

// AsTerm recognizes a Term: msg.Term(), msg.TermWithReason(reason), a call
// of a function (any package) that may Term its message parameter with the
// message as argument, or a call of a function literal (directly or
// through a local variable) that Terms a message parameter or a message it
// captures.
func (m *Result) AsTerm(call *ast.CallExpr) (SettleCall, bool) {
	for _, s := range m.Settlements(call) {
		if s.Settlement == profile.Terminate {
			return m.settleCall(call, s), true
		}
	}
	return SettleCall{}, false
}

// AsAck recognizes an Ack (Ack, AckSync, DoubleAck) that settles a message
// as done for certain: the ack call itself, a function literal called on
// the spot (directly or through a local variable) that Acks, or a call of
// a helper (any package) that Acks the message it is given whenever it
// runs. A helper that Acks only on some path is not counted.
func (m *Result) AsAck(call *ast.CallExpr) (SettleCall, bool) {
	for _, s := range m.Settlements(call) {
		if s.Settlement == profile.Done && m.IsCertainAck(call, s) {
			return m.settleCall(call, s), true
		}
	}
	return m.CertainHelperSettle(call, profile.Done)
}

// IsCertainAck reports whether a Done settlement of call certainly
// happens: the ack call itself, or a function literal it calls.
func (m *Result) IsCertainAck(call *ast.CallExpr, s Settlement) bool {
	return !s.Helper || s.Name == "" || defs.FuncLitOf(m.info, m.defs, call.Fun) != nil
}

func (m *Result) settleCall(call *ast.CallExpr, s Settlement) SettleCall {
	return SettleCall{
		Call: call, Settlement: s.Settlement, Msg: s.Msg, Msgs: m.msgs.Deps(s.Msg), Name: s.Name,
		Helper: s.Helper, Inner: s.Inner, Writes: s.Writes,
	}
}

// CertainAckInside returns the Ack inside a helper that call invokes, when
// the helper Acks whenever it runs (an Unconditional Ack of a message
// parameter), or token.NoPos.
func (m *Result) CertainAckInside(call *ast.CallExpr) token.Pos {
	if e, ok := m.CertainEffect(call, profile.Done); ok {
		return e.Site
	}
	return token.NoPos
}

// CertainEffect returns the effect of settlement s that the helper call
// invokes makes whenever it runs (an Unconditional settlement of a message
// parameter): known for helpers of this package from their bodies, for
// others from the condition in their facts.
func (m *Result) CertainEffect(call *ast.CallExpr, s profile.Settlement) (HelperEffect, bool) {
	return m.certainEffect(call, s, 0)
}

// certainEffect is CertainEffect through helpers of the package that
// call another helper whenever they run (retryLater(m) calling
// queue.Redeliver(m), which Naks), as deep as defs.MaxDepth: the Site is
// the settlement at the end of the chain.
func (m *Result) certainEffect(call *ast.CallExpr, s profile.Settlement, depth int) (HelperEffect, bool) {
	if name, _ := goast.CalledName(call.Fun); !m.EffectNamed(name) {
		return HelperEffect{}, false
	}
	fn := gotypes.StaticCallee(m.info, call)
	if fn == nil {
		return HelperEffect{}, false
	}
	fn = fn.Origin()
	if fn.Pkg() != m.pkg {
		for _, e := range m.EffectsOf(fn) {
			if e.Settlement == s && e.Cond == CondAlways && e.Param < len(call.Args) {
				return e, true
			}
		}
		return HelperEffect{}, false
	}
	effects := m.effects[fn]
	if len(effects) == 0 {
		return HelperEffect{}, false
	}
	d := m.declByFn[fn]
	if d == nil {
		return HelperEffect{}, false
	}
	for _, e := range effects {
		if e.Settlement != s || e.Call == nil || e.Param >= len(call.Args) || !Unconditional(d.Body, e.Call) {
			continue
		}
		if _, direct := m.msgs.AsAckCall(e.Call); direct {
			e.Site = e.Call.Pos()
			return e, true
		}
		if depth >= defs.MaxDepth {
			continue
		}
		inner, ok := m.certainEffect(e.Call, s, depth+1)
		if ok && m.passesParam(d, e.Param, e.Call.Args[inner.Param]) {
			e.Site = inner.Site
			return e, true
		}
	}
	return HelperEffect{}, false
}

// passesParam reports whether arg, an argument of a call in d, is (or is
// derived from) d's message parameter i.
func (m *Result) passesParam(d *ast.FuncDecl, i int, arg ast.Expr) bool {
	params := messages.ParamVars(m.info, d.Type)
	return i < len(params) && params[i] != nil && slices.Contains(m.msgs.Deps(arg), params[i])
}

// CertainHelperSettle recognizes a call of a helper (any package) that
// settles a message it is given as s whenever it runs: the message
// argument and the settlement inside, for the checks that judge helper
// calls without a condition on an error.
func (m *Result) CertainHelperSettle(call *ast.CallExpr, s profile.Settlement) (SettleCall, bool) {
	e, ok := m.CertainEffect(call, s)
	if !ok {
		return SettleCall{}, false
	}
	msg := call.Args[e.Param]
	return SettleCall{Call: call, Settlement: s, Msg: msg, Msgs: m.msgs.Deps(msg), Name: goast.CalleeText(call.Fun),
		Helper: true, Inner: e.Site}, true
}

// SiteIn turns a place recorded relative to fn's declaration (lines after
// the line of its name, and a column) back into a position, or fn's own
// position when the file does not have it.
func (m *Result) SiteIn(fn *types.Func, line, col int) token.Pos {
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

// SiteInFile returns the position at line and column of the file named
// base in fn's package directory, or fn's own position.
func (m *Result) SiteInFile(fn *types.Func, base string, line, col int) token.Pos {
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

// MayTermParams returns the indexes of fn's message parameters that fn (any
// package) may Term on some path, directly or through other helpers.
func (m *Result) MayTermParams(fn *types.Func) []int {
	var out []int
	for _, e := range m.EffectsOf(fn) {
		if e.Settlement == profile.Terminate {
			out = append(out, e.Param)
		}
	}
	return out
}

// MayTermSite returns where the may-Term helper fn Terms its message (or
// calls the helper that does), or fn's own position when the exact place
// is not known in this run.
func (m *Result) MayTermSite(fn *types.Func) token.Pos {
	for _, e := range m.EffectsOf(fn) {
		if e.Settlement == profile.Terminate {
			return e.Site
		}
	}
	return token.NoPos
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

// Unconditional reports whether call runs whenever body runs to its end
// (onEveryPath). A settlement under any other condition (a switch on an
// action, a flag) is not "always".
func Unconditional(body *ast.BlockStmt, call *ast.CallExpr) bool {
	found := false
	goast.OnEveryPath(body, func(n ast.Node) bool {
		found = n.Pos() <= call.Pos() && call.End() <= n.End()
		return !found
	})
	return found
}

// FirstErrorParam returns the index of fn's first error parameter, or -1.
func FirstErrorParam(fn *types.Func) int {
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

// SettlementVerbs name the Settlements in fact strings after the
// contract's vocabulary.
var SettlementVerbs = map[profile.Settlement]string{
	profile.Done: "Ack", profile.RetryNow: "Nak", profile.RetryLater: "NakWithDelay", profile.Terminate: "Term",
}

// Effect is one settlement of one message parameter, on some path.
type Effect struct {
	Param      int
	Settlement profile.Settlement
	// Cond is when it happens, on the function's first error parameter.
	Cond EffectCond
	// Line and Col locate the settlement (or the call of the helper that
	// makes it) inside the function: lines after the line of the
	// function's name, and the column. Checks use them to point at the
	// inner settlement from another package without storing a token.Pos,
	// which would mean nothing in another process.
	Line, Col int
}
