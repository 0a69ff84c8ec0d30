package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// A bus that settles through a helper: the dispatch calls the handler,
// then passes its error to a function of the package that Acks when it is
// nil (err = h(ctx, ev); b.settle(ctx, msg, ev, err)). The Ack on nil is
// the helper's; the handler parameter is the bus's all the same. One
// level: the helper is judged on its error parameter as a handler caller
// is on the call (acksOnNil), and what it passes on is not followed (a
// parameter has no definition that is a handler's call).

// handlerErr says which errors in a body are a handler's: the result of a
// call isCall accepts, or, in a helper the handler's error is passed to,
// the parameter param (nil in the handler's caller itself).
type handlerErr struct {
	isCall func(*ast.CallExpr) bool
	param  *types.Var
}

// acksInHelper returns the Ack of a helper of the package that statement
// s calls with a handler's error, where the helper Acks when that error
// parameter is nil, or token.NoPos.
func (m *Result) acksInHelper(s ast.Stmt, herr handlerErr) token.Pos {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return token.NoPos
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return token.NoPos
	}
	fn := gotypes.StaticCallee(m.info, call)
	if fn == nil {
		return token.NoPos
	}
	d := m.declOf(fn)
	if d == nil || d.Body == nil {
		return token.NoPos
	}
	params := messages.ParamVars(m.info, d.Type)
	for j, a := range call.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok || j >= len(params) || params[j] == nil || !gotypes.IsError(params[j].Type()) {
			continue
		}
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok {
			continue
		}
		defs := m.defs().Reaching(v, call.Pos())
		if len(defs) != 1 || defs[0].RHS == nil {
			continue
		}
		if rhs, ok := ast.Unparen(defs[0].RHS).(*ast.CallExpr); ok && herr.isCall(rhs) {
			return m.acksOnNil(d.Body, handlerErr{isCall: func(*ast.CallExpr) bool { return false }, param: params[j]})
		}
	}
	return token.NoPos
}
