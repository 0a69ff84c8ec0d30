package paths

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// BodyAckCalls is the ack calls of one function body, in source order.
type BodyAckCalls struct {
	Body  *ast.BlockStmt
	Calls []messages.AckCall
}

// AckCallsByBody returns the package's ack calls for which keep holds,
// grouped by the function body (declaration or literal) that holds them,
// in source order.
func (m *Result) AckCallsByBody(keep func(messages.AckCall) bool) []*BodyAckCalls {
	var out []*BodyAckCalls
	for _, bc := range m.ackCalls {
		var calls []messages.AckCall
		for _, c := range bc.Calls {
			if keep(c) {
				calls = append(calls, c)
			}
		}
		if len(calls) > 0 {
			out = append(out, &BodyAckCalls{Body: bc.Body, Calls: calls})
		}
	}
	return out
}

// TermBodies returns the function bodies (declarations and literals) that
// hold a Term, in source order; the model has built their CFGs.
func (m *Result) TermBodies() []*ast.BlockStmt { return slices.Clip(m.termBodies) }

// HelperSettle is a call of a helper that settles a message it is given,
// with the condition under which it does.
type HelperSettle struct {
	Call       *ast.CallExpr
	Name       string // the helper as written
	Settlement profile.Settlement
	Cond       settle.EffectCond
	ErrArg     ast.Expr  // the argument of the helper's first error parameter, or nil
	Inner      token.Pos // the settlement inside the helper
	Msg        ast.Expr  // the message settled
}

// Conditional reports whether the helper settles only under a condition
// on the error it is given (nil, non-nil and unclassified, after a
// classification): judged with the argument at each call.
func (h HelperSettle) Conditional() bool { return h.Cond != settle.CondAlways }

// BodyHelperSettles is the helper settlements of one function body.
type BodyHelperSettles struct {
	Body  *ast.BlockStmt
	Calls []HelperSettle
}

// VisitHelperSettles calls visit for each call of a helper that settles
// as s, with the path facts just before it. *at follows the call, for
// internal errors.
func (m *Result) VisitHelperSettles(s profile.Settlement, at *token.Pos, visit func(transient.PathFacts, HelperSettle)) {
	for _, hb := range m.helperSettles {
		paths := m.ErrorPaths(hb.Body)
		for _, h := range hb.Calls {
			if h.Settlement != s {
				continue
			}
			*at = h.Call.Pos()
			if facts, ok := paths.At(h.Call); ok {
				visit(facts, h)
			}
		}
	}
}

// HelperSettlesByBody returns the calls of helpers whose effects have a
// known condition, grouped by body, in source order; the model has solved
// the transient paths of those bodies.
func (m *Result) HelperSettlesByBody() []*BodyHelperSettles { return m.helperSettles }

// HelperSettlesWith reports whether a helper call settles its message
// given the error argument it receives, where errVar holds the error the
// caller is handling (non-nil, unclassified): always; when non-nil and
// unclassified, if it is given errVar; when nil, if it is given nil.
func HelperSettlesWith(info *types.Info, h HelperSettle, errVar *types.Var) bool {
	switch h.Cond {
	case settle.CondAlways:
		return true
	case settle.CondNonNilUnclassed:
		id, ok := ast.Unparen(h.ErrArg).(*ast.Ident)
		return ok && errVar != nil && info.Uses[id] == errVar
	case settle.CondNil:
		return h.ErrArg != nil && gotypes.IsNilExpr(info, h.ErrArg)
	}
	return false
}

// isLitCall reports whether call calls a function literal (directly or
// through a local variable): judged inside the literal, not here.
func isLitCall(m *Result, call *ast.CallExpr) bool {
	return defs.FuncLitOf(m.info, m.defs, call.Fun) != nil
}

// AckBodies returns the function bodies that hold an Ack (AsAck), in
// source order; the model has built their CFGs.
func (m *Result) AckBodies() []*ast.BlockStmt { return slices.Clip(m.ackBodies) }

// VisitAckCalls calls visit for each ack call of the package for which
// keep holds, with the path facts of the function body that holds it.
// Only bodies with such a call get a control-flow analysis. *at follows
// the body and call being visited, for the check's internal errors (checks.New).
func (m *Result) VisitAckCalls(keep func(messages.AckCall) bool, at *token.Pos, visit func(*transient.ErrorPaths, messages.AckCall)) {
	if m.info == nil {
		return
	}
	for _, fn := range m.AckCallsByBody(keep) {
		*at = fn.Body.Pos()
		paths := m.ErrorPaths(fn.Body)
		for _, call := range fn.Calls {
			*at = call.Call.Pos()
			visit(paths, call)
		}
	}
}

// DeferredAckBodies returns the function bodies that defer a literal
// holding an Ack (defer func() { _ = msg.Ack() }()), in source order: the
// Ack is the literal's, its returns are theirs. Bodies holding a deferred
// Ack of their own are among AckCallsByBody's.
func (m *Result) DeferredAckBodies() []*ast.BlockStmt { return slices.Clip(m.deferredAckBodies) }
