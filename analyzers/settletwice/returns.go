package settletwice

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// errorHandler returns the handler that body is, when its error result is
// a settlement: its caller Naks or Terms the message when it returns an
// error, and it receives that message (an Ack of another message says
// nothing about the caller's). nil otherwise: a bool handler, a caller that
// only logs the error, a handler without the message.
func (c *checker) errorHandler(body *ast.BlockStmt) *contract.Handler {
	h := c.m.Handlers().HandlerOf(body)
	if h == nil || h.Bool || h.OnError == "" || len(h.Msgs) == 0 {
		return nil
	}
	return h
}

// errorReturn returns the event of n when it is a return of h's body that
// returns an error (Handlers().ErrorReturn): the caller's settlement of
// the handler's message, at the return. nil otherwise.
func (c *checker) errorReturn(body *ast.BlockStmt, h *contract.Handler, n ast.Node) *event {
	ret, ok := n.(*ast.ReturnStmt)
	if h == nil || !ok || !c.m.Handlers().ErrorReturn(body, ret) {
		return nil
	}
	s := contract.SettleCall{Settlement: h.OnError, Msg: ast.NewIdent(h.Msgs[0].Name()), Msgs: h.Msgs, Name: h.Caller}
	return &event{s: s, ret: ret, h: h}
}

// reportReturn reports the handler's error return e that follows the Ack
// ack: the caller's Nak or Term it asks for is ignored.
func (c *checker) reportReturn(e, ack *event) {
	ackVerb := ack.s.Name
	if ack.s.Helper {
		ackVerb = "Ack in " + ack.s.Name
	}
	related := []analysis.RelatedInformation{{Pos: ack.s.Call.Pos(), End: ack.s.Call.End(), Message: "the message is acknowledged here"}}
	c.m.Report(c.pass, analysis.Diagnostic{
		Pos: e.ret.Pos(), End: e.ret.End(),
		Message: fmt.Sprintf("returning an error after %s is ignored: %s's %s of the failed work never happens; acknowledge after the work",
			ackVerb, e.h.Caller, verbs[e.s.Settlement]),
		Related: append(related, e.h.Related()...),
	})
}
