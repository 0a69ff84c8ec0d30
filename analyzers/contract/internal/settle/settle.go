package settle

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
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
		if e.Settlement != s || e.Call == nil || e.Param >= len(call.Args) {
			continue
		}
		if _, direct := m.msgs.AsAckCall(e.Call); direct && Unconditional(d.Body, e.Call) {
			e.Site = e.Call.Pos()
			return e, true
		}
	}
	return HelperEffect{}, false
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
