package contract

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// The DLQ and Term queries below read the Model only: the caches their
// implementations fill while the contract analyzer runs are complete once
// freeze returns.

// AsDLQWrite recognizes a DLQ write (see CONTRACT.md) and describes it.
func (m *Model) AsDLQWrite(call *ast.CallExpr) (DLQWrite, bool) { return m.dlq.AsDLQWrite(call) }

// IsDLQWriter reports whether fn (any package) makes a DLQ write on some path.
func (m *Model) IsDLQWriter(fn *types.Func) bool { return m.dlq.IsDLQWriter(fn) }

// IsDLQWrite reports whether call is a DLQ write.
func (m *Model) IsDLQWrite(call *ast.CallExpr) bool { return m.dlq.IsDLQWrite(call) }

// AsTerm recognizes a Term: Term, TermWithReason, a call to a may-Term helper, or a Term-ing closure.
func (m *Model) AsTerm(call *ast.CallExpr) (SettleCall, bool) { return m.set.AsTerm(call) }

// MessageDeps returns the message variables e derives from (the "same message" fine point).
func (m *Model) MessageDeps(e ast.Expr) []*types.Var { return m.msgs.Deps(e) }

// MayTermParams returns the message parameters fn may Term.
func (m *Model) MayTermParams(fn *types.Func) []int { return m.set.MayTermParams(fn) }

// MayTermSite returns the position of the Term inside fn, when known.
func (m *Model) MayTermSite(fn *types.Func) token.Pos { return m.set.MayTermSite(fn) }

// freeze ends the inferences: the calls of each body, which only their
// fixpoints needed, are dropped, and the Model is never written again: the
// checks that share it run in parallel.
func (m *Model) freeze() {
	m.frozen = true
	m.calls = nil
}

// eachCall calls f for every call of the package that a function body
// (declaration or literal) evaluates, with that body, in source order.
func (m *Model) eachCall(f func(call *ast.CallExpr, body *ast.BlockStmt)) {
	for _, s := range m.syn.Sites {
		if call, ok := s.Node.(*ast.CallExpr); ok && s.Body != nil {
			f(call, s.Body)
		}
	}
}

// returnsOf returns the return statements of a function body, not those
// of the function literals inside it.
func (m *Model) returnsOf(body *ast.BlockStmt) []*ast.ReturnStmt {
	if rets, ok := m.syn.Returns[body]; ok {
		return rets
	}
	return goast.Returns(body)
}

// IsTestFunc reports whether d is a test function, out of scope of the
// model and of every check.
func (m *Model) IsTestFunc(d *ast.FuncDecl) bool { return m.testFuncs[d] }

// defs returns the package's flow index, built on first use while the
// model runs: most packages of a program never need it. Once the model is
// frozen it is only read; a package that did not build it then gets one
// of its own for the query, not kept.
func (m *Model) defs() *defs.Index {
	if m.flow != nil {
		return m.flow
	}
	nodes := m.syn.Flow
	if m.frozen {
		nodes = syntax.NewIndex(m.files, m.testFuncs).Flow // dropped when the model was frozen
	}
	idx := defs.Build(m.info, nodes)
	if !m.frozen {
		m.flow = idx
	}
	return idx
}

// funcLitOf returns the function literal a callee expression denotes
// (defs.FuncLitOf), building the flow index only for a variable.
func (m *Model) funcLitOf(fun ast.Expr) *ast.FuncLit { return defs.FuncLitOf(m.info, m.defs, fun) }

// AsAckCall recognizes msg.Ack(), msg.Nak(), msg.Term()... on a message,
// and calls of a local variable bound to such a method value
// (term := msg.Term; term()) by its one definition that reaches the call.
func (m *Model) AsAckCall(call *ast.CallExpr) (AckCall, bool) { return m.msgs.AsAckCall(call) }

// DelayedRetry returns the method that redelivers msg after a delay in
// its library (NakWithDelay), for messages: the first profile's when msg's
// library is not known.
func (m *Model) DelayedRetry(msg ast.Expr) string { return m.msgs.DelayedRetry(msg) }

// IsMessage reports whether t is a message of some profile.
func (m *Model) IsMessage(t types.Type) bool { return m.msgs.IsMessage(t) }

// AckCall describes a call of an acknowledgement method on a message.
type AckCall = messages.AckCall

// IsCarrier reports whether a value of static type t carries retry intent.
func (m *Model) IsCarrier(t types.Type) bool { return m.prod.IsCarrier(t) }

// IsCarrierPtr is IsCarrier for t or *t.
func (m *Model) IsCarrierPtr(t types.Type) bool { return m.prod.IsCarrierPtr(t) }

// MayBeRetryable reports whether the error expression e may hold a retry
// carrier.
func (m *Model) MayBeRetryable(e ast.Expr) bool { return m.prod.MayBeRetryable(e) }

// callsOf returns the calls of body in InspectCalls order. While the model
// runs (its fixpoints ask for the same bodies round after round) they come
// from the syntax index, grouped by body once; afterwards from a walk.
func (m *Model) callsOf(body *ast.BlockStmt) []*ast.CallExpr {
	if m.frozen {
		var calls []*ast.CallExpr
		goast.InspectCalls(body, func(call *ast.CallExpr) bool {
			calls = append(calls, call)
			return true
		})
		return calls
	}
	if calls, ok := m.calls[body]; ok {
		return calls
	}
	if m.calls == nil {
		m.calls = m.syn.CallsByBody()
		if calls, ok := m.calls[body]; ok {
			return calls
		}
	}
	m.calls[body] = nil // a body of no call (or not the package's)
	return nil
}

// DLQWrite describes a call that writes a dead-letter queue.
type DLQWrite = dlq.DLQWrite

// WriterKind says what a DLQ writer's error tells of its DLQ write.
type WriterKind = dlq.WriterKind

// The kinds of DLQ writer (dlq.WriterKind).
const (
	CheckedWriter    = dlq.CheckedWriter
	OrderingWriter   = dlq.OrderingWriter
	SwallowingWriter = dlq.SwallowingWriter
)

// DLQDirective, in the doc comment of a function, declares that the
// function writes a dead-letter queue although nothing in its name or body
// says so.
const DLQDirective = dlq.DLQDirective

// SettleCall describes a call that settles a message: a Term, an Ack.
type SettleCall = settle.SettleCall

// CertainHelperSettle recognizes a call of a helper (any package) that
// settles a message it is given as s whenever it runs.
func (m *Model) CertainHelperSettle(call *ast.CallExpr, s profile.Settlement) (SettleCall, bool) {
	return m.set.CertainHelperSettle(call, s)
}

// AsAck recognizes an Ack that settles a message as done for certain.
func (m *Model) AsAck(call *ast.CallExpr) (SettleCall, bool) { return m.set.AsAck(call) }

// DeferredAck is a deferred Ack of a function body (settle.DeferredAck).
type DeferredAck = settle.DeferredAck

// DeferredAckAt returns the deferred Ack that runs at ret, a return
// statement of body, and settles the message there.
func (m *Model) DeferredAckAt(body *ast.BlockStmt, ret *ast.ReturnStmt) (DeferredAck, bool) {
	return m.set.DeferredAckAt(body, ret)
}

// WritesDLQ reports whether the package makes a DLQ write anywhere but in
// test functions.
func (m *Model) WritesDLQ() bool { return m.dlq.WritesDLQ() }

// Handler describes a function body that is a handler.
type Handler = handlers.Handler

// ForeignHandler is a function of another package registered here as a
// handler.
type ForeignHandler = handlers.ForeignHandler

// ForeignReturn is a return of a ForeignHandler.
type ForeignReturn = handlers.ForeignReturn

// Decode describes a call that decodes a message's payload.
type Decode = handlers.Decode

// HandlerDirective, in the doc comment of a function, names a func-typed
// parameter whose nil result the function turns into an Ack.
const HandlerDirective = handlers.HandlerDirective

// HandlerBodies returns the handler bodies of the package, in source
// order.
func (m *Model) HandlerBodies() []*ast.BlockStmt { return m.hd.HandlerBodies() }

// HandlerOf returns what makes body a handler, or nil.
func (m *Model) HandlerOf(body *ast.BlockStmt) *Handler { return m.hd.HandlerOf(body) }

// ForeignHandlers returns the handlers of other packages registered here.
func (m *Model) ForeignHandlers() []ForeignHandler { return m.hd.ForeignHandlers() }

// NilReturns returns the return statements of body (not of nested
// literals) whose error result is the literal nil.
func (m *Model) NilReturns(body *ast.BlockStmt) []*ast.ReturnStmt { return m.hd.NilReturns(body) }

// AsDecode recognizes a decode of a message's payload.
func (m *Model) AsDecode(call *ast.CallExpr) (Decode, bool) { return m.hd.AsDecode(call) }

// DecodeAssignedTo returns the decode whose error v holds at pos.
func (m *Model) DecodeAssignedTo(v *types.Var, pos token.Pos) (Decode, bool) {
	return m.hd.DecodeAssignedTo(v, pos)
}
