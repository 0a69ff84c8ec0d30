package handlers

import (
	"go/ast"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Through the callee (CONTRACT.md version 3, "Handlers, wider"): a handler
// that returns `return f(...)` hands f's error result to its caller as it
// is, so f's `return nil` is the same Ack of the same message: f is a
// handler for that call, judged in its own body, with the handler's return
// as a related location. Followed transitively (f returning g(...)), as
// deep as every trace of the model (defs.MaxDepth).
//
// Followed: a function, method, method value or literal of the package
// whose result the return passes on as it is. Not followed: a call wrapped
// in fmt.Errorf("...: %w", f(...)), which is never nil (a nil f result
// becomes "%!w(<nil>)", an error the bus Naks, not an Ack); functions of
// other packages (their returns would be reported in another package's
// file); a callee whose body is already a handler of its own.

// handlersThroughCallees marks the functions whose result a handler
// returns as it is.
func (m *Result) handlersThroughCallees() {
	work := m.HandlerBodies()
	for depth := 0; len(work) > 0 && depth <= defs.MaxDepth; depth++ {
		var next []*ast.BlockStmt
		for _, body := range work {
			h := m.handlers[body]
			for _, ret := range m.returnsOf(body) {
				if b := m.markCallee(h, ret); b != nil {
					next = append(next, b)
				}
			}
		}
		work = next
	}
}

// markCallee marks the function whose result ret returns as it is, when it
// is not a handler yet, and returns its body.
func (m *Result) markCallee(h *Handler, ret *ast.ReturnStmt) *ast.BlockStmt {
	if len(ret.Results) != 1 {
		return nil
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || !gotypes.IsError(m.info.TypeOf(call)) {
		return nil
	}
	body, ft := m.handlerBody(call.Fun)
	if body == nil || m.handlers[body] != nil {
		return nil
	}
	nh := &Handler{Caller: h.Caller, Ack: h.Ack, OnError: h.OnError, Through: ret, ThroughName: goast.CalleeText(call.Fun)}
	nh.Msgs = m.msgs.MessageParams(ft)
	m.handlers[body] = nh
	return body
}
