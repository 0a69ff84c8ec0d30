package contract

import (
	"go/ast"
	"go/types"
)

// Import paths of the NATS client whose message types are messages by
// definition.
const (
	NATSPath      = "github.com/nats-io/nats.go"
	JetStreamPath = "github.com/nats-io/nats.go/jetstream"
)

// Ack method names of a message.
const (
	MethodAck            = "Ack"
	MethodAckSync        = "AckSync"
	MethodDoubleAck      = "DoubleAck"
	MethodNak            = "Nak"
	MethodNakWithDelay   = "NakWithDelay"
	MethodTerm           = "Term"
	MethodTermWithReason = "TermWithReason"
	MethodInProgress     = "InProgress"
)

// ackMethods is the set of acknowledgement methods a message has.
var ackMethods = map[string]bool{
	MethodAck: true, MethodAckSync: true, MethodDoubleAck: true,
	MethodNak: true, MethodNakWithDelay: true,
	MethodTerm: true, MethodTermWithReason: true, MethodInProgress: true,
}

// IsMessage reports whether t is a message: *nats.Msg, jetstream.Msg, or any
// type or interface whose method set has Ack() error together with
// Nak() error or Term() error (ack options such as nats.AckOpt allowed).
func (m *Model) IsMessage(t types.Type) bool {
	if !isValid(t) {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok && isNamed(p.Elem(), NATSPath, "Msg") {
		return true
	}
	if isNamed(t, NATSPath, "Msg") || isNamed(t, JetStreamPath, "Msg") {
		return true
	}
	return m.isAckMethod(t, MethodAck) && (m.isAckMethod(t, MethodNak) || m.isAckMethod(t, MethodTerm))
}

// isAckMethod reports whether t (or *t) has name(opts...) error, where any
// parameters are a single variadic option list.
func (m *Model) isAckMethod(t types.Type, name string) bool {
	fn := pointerMethodOf(t, m.pkg, name)
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 1 || !IsError(sig.Results().At(0).Type()) {
		return false
	}
	switch sig.Params().Len() {
	case 0:
		return true
	case 1:
		return sig.Variadic()
	}
	return false
}

// AckCall describes a call of an acknowledgement method on a message.
type AckCall struct {
	Call   *ast.CallExpr
	Recv   ast.Expr // the message expression
	Method string   // one of the Method* names
}

// AsAckCall recognizes msg.Ack(), msg.Nak(), msg.Term()... on a message,
// and calls of a local variable bound to such a method value
// (term := msg.Term; term()) by its one definition that reaches the call.
func (m *Model) AsAckCall(call *ast.CallExpr) (AckCall, bool) {
	if m.info == nil {
		return AckCall{}, false
	}
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok {
			return AckCall{}, false
		}
		defs := m.flow.reaching(v, call.Pos())
		if len(defs) != 1 || defs[0].rhs == nil || defs[0].index >= 0 {
			return AckCall{}, false
		}
		fun = ast.Unparen(defs[0].rhs)
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || !ackMethods[sel.Sel.Name] {
		return AckCall{}, false
	}
	if s := m.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return AckCall{}, false
	}
	if !m.IsMessage(m.info.TypeOf(sel.X)) {
		return AckCall{}, false
	}
	return AckCall{Call: call, Recv: sel.X, Method: sel.Sel.Name}, true
}

// IsBareNak reports whether an ack call is a Nak without a delay: Nak() or
// the legacy Nak(opts...) whose options carry no delay.
func (a AckCall) IsBareNak() bool { return a.Method == MethodNak }

// IsTerm reports whether an ack call terminates the message.
func (a AckCall) IsTerm() bool {
	return a.Method == MethodTerm || a.Method == MethodTermWithReason
}

// IsAck reports whether an ack call acknowledges success.
func (a AckCall) IsAck() bool {
	return a.Method == MethodAck || a.Method == MethodAckSync || a.Method == MethodDoubleAck
}
