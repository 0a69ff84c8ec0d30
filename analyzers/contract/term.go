package contract

import (
	"go/ast"
	"go/token"
	"go/types"

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

// asTerm recognizes a Term: msg.Term(), msg.TermWithReason(reason), a call
// of a function (any package) that may Term its message parameter with the
// message as argument, or a call of a function literal (directly or
// through a local variable) that Terms a message parameter or a message it
// captures.
func (m *Model) asTerm(call *ast.CallExpr) (SettleCall, bool) {
	for _, s := range m.settlements(call) {
		if s.settlement == profile.Terminate {
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
func (m *Model) AsAck(call *ast.CallExpr) (SettleCall, bool) {
	for _, s := range m.settlements(call) {
		if s.settlement == profile.Done && isCertainAck(call, s, m) {
			return m.settleCall(call, s), true
		}
	}
	return m.CertainHelperSettle(call, profile.Done)
}

// isCertainAck reports whether a Done settlement of call certainly
// happens: the ack call itself, or a function literal it calls.
func isCertainAck(call *ast.CallExpr, s settlement, m *Model) bool {
	return !s.helper || s.name == "" || m.funcLitOf(call.Fun) != nil
}

func (m *Model) settleCall(call *ast.CallExpr, s settlement) SettleCall {
	return SettleCall{
		Call: call, Settlement: s.settlement, Msg: s.msg, Msgs: m.msgs.Deps(s.msg), Name: s.name,
		Helper: s.helper, Inner: s.inner, Writes: s.writes,
	}
}
