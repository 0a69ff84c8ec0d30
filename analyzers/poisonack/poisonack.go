package poisonack

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/foreign"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Name is the analyzer's name.
const Name = "poisonack"

// Analyzer is poisonack on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns poisonack built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		FactTypes: []analysis.Fact{new(DecodeDropFact)},
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			c := &checker{pass: pass, m: m, at: at}
			c.run()
		},
	})
}

type checker struct {
	pass *analysis.Pass
	m    *contract.Model
	at   *token.Pos

	writesDLQ *bool                                     // whether the package writes a DLQ anywhere, once asked
	helpers   map[*ast.CallExpr][]contract.HelperSettle // the package's helper calls with a known condition
}

// packageWritesDLQ asks the model once per package.
func (c *checker) packageWritesDLQ() bool {
	if c.writesDLQ == nil {
		w := c.m.DLQ().WritesDLQ()
		c.writesDLQ = &w
	}
	return *c.writesDLQ
}

// run looks at the bodies that settle a message: only there can a
// decode-failure path settle one.
func (c *checker) run() {
	seen := make(map[*ast.BlockStmt]bool)
	var bodies []*ast.BlockStmt
	for _, b := range c.m.Paths().AckCallsByBody(func(contract.AckCall) bool { return true }) {
		seen[b.Body] = true
		bodies = append(bodies, b.Body)
	}
	// Concat copies: the model's slices are shared with the other checks.
	more := slices.Concat(c.m.Paths().TermBodies(), c.m.Handlers().HandlerBodies(), c.m.Paths().DeferredAckBodies())
	c.helpers = make(map[*ast.CallExpr][]contract.HelperSettle)
	for _, hb := range c.m.Paths().HelperSettlesByBody() {
		more = append(more, hb.Body)
		for _, h := range hb.Calls {
			c.helpers[h.Call] = append(c.helpers[h.Call], h)
		}
	}
	for _, b := range more {
		if !seen[b] {
			seen[b] = true
			bodies = append(bodies, b)
		}
	}
	for _, body := range bodies {
		*c.at = body.Pos()
		c.checkBody(body)
	}
	c.exportDecodeDrops()
	c.checkForeignHandlers()
}

// DecodeDropFact marks a function that returns nil on a payload decode's
// failure: a defect if it is a handler whose nil result its caller Acks.
// The package that declares the function cannot know it is one; the
// package that registers it with such a bus reports the returns, at the
// registration (analyzers/internal/foreign).
type DecodeDropFact = foreign.Fact[DecodeDrop]

// DecodeDrop is one such return and its decode (the callee as written),
// placed relative to the function's declaration (foreign.Place).
type DecodeDrop struct {
	At       foreign.Place
	Decode   string
	DecodeAt foreign.Place
}

// Return is where the return is.
func (r DecodeDrop) Return() foreign.Place { return r.At }

// Summary is DecodeDropFact's String.
func (DecodeDrop) Summary() string { return "drops an undecodable payload if a caller acks on nil" }

// exportDecodeDrops exports a DecodeDropFact for each function of the
// package that could be a handler registered elsewhere.
func (c *checker) exportDecodeDrops() {
	for _, d := range c.m.Handlers().HandlerCandidates() {
		fn, ok := c.pass.TypesInfo.Defs[d.Name].(*types.Func)
		if !ok {
			continue
		}
		*c.at = d.Pos()
		var rows []DecodeDrop
		c.decodeFailures(d.Body, func(dec contract.Decode, branch *ast.BlockStmt) {
			if c.branchWrites(branch) {
				return
			}
			decAt, ok := foreign.At(c.m, fn, dec.Call.Pos())
			if !ok {
				return
			}
			for _, ret := range c.m.Handlers().NilReturns(branch) {
				if at, ok := foreign.At(c.m, fn, ret.Pos()); ok {
					rows = append(rows, DecodeDrop{At: at, Decode: dec.Name, DecodeAt: decAt})
				}
			}
		})
		foreign.Export(c.pass, fn, rows)
	}
}

// checkForeignHandlers reports, at the registration, the decode-failure
// returns of handlers declared in another package and registered here
// with a bus that Acks when they return nil.
func (c *checker) checkForeignHandlers() {
	foreign.Report(c.pass, c.m, c.at, func(f foreign.Finding[DecodeDrop]) (string, []analysis.RelatedInformation) {
		return fmt.Sprintf("handler %s returning nil on the decode failure of %s makes %s Ack the message: the undecodable payload disappears as if it were handled; "+
				"return the decode error (or dead-letter it and check the write)", f.Name, f.Row.Decode, f.Handler.Caller),
			[]analysis.RelatedInformation{{Pos: f.Pos(f.Row.DecodeAt), Message: "the decode"}}
	})
}

// decodeFailures calls f for each decode-failure branch of body, outside
// function literals.
func (c *checker) decodeFailures(body *ast.BlockStmt, f func(contract.Decode, *ast.BlockStmt)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if dec, branch, ok := c.decodeFailure(n); ok {
				f(dec, branch)
			}
		}
		return true
	})
}

// branchWrites reports whether a branch writes the DLQ (outside function
// literals).
func (c *checker) branchWrites(branch *ast.BlockStmt) bool {
	wrote := false
	inspectCalls(branch, func(call *ast.CallExpr) {
		wrote = wrote || c.m.DLQ().IsDLQWrite(call)
	})
	return wrote
}

// checkBody finds the decode-failure branches of body (if statements that
// test a decode's error) and judges the settlements in them.
func (c *checker) checkBody(body *ast.BlockStmt) {
	handler := c.m.Handlers().HandlerOf(body)
	c.decodeFailures(body, func(dec contract.Decode, branch *ast.BlockStmt) {
		c.judge(dec, branch, handler)
		c.judgeDeferred(dec, branch, body)
	})
}

// decodeFailure recognizes an if statement that tests a payload decode's
// error and returns the decode and the branch taken on failure.
func (c *checker) decodeFailure(s *ast.IfStmt) (contract.Decode, *ast.BlockStmt, bool) {
	bin, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok || (bin.Op != token.NEQ && bin.Op != token.EQL) {
		return contract.Decode{}, nil, false
	}
	x := bin.X
	if isNil(c.pass.TypesInfo, x) {
		x = bin.Y
	} else if !isNil(c.pass.TypesInfo, bin.Y) {
		return contract.Decode{}, nil, false
	}
	dec, ok := c.decodeOf(x, s)
	if !ok {
		return contract.Decode{}, nil, false
	}
	if bin.Op == token.NEQ {
		return dec, s.Body, true
	}
	if els, ok := s.Else.(*ast.BlockStmt); ok {
		return dec, els, true
	}
	return contract.Decode{}, nil, false
}

// decodeOf returns the decode whose error e holds: the decode call
// itself, or a variable the if's init or an earlier statement assigned
// from one.
func (c *checker) decodeOf(e ast.Expr, s *ast.IfStmt) (contract.Decode, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		dec, ok := c.m.Handlers().AsDecode(e)
		return dec, ok && dec.ErrIndex == 0
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok {
			return contract.Decode{}, false
		}
		return c.m.Handlers().DecodeAssignedTo(v, s.Cond.Pos())
	}
	return contract.Decode{}, false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// judge reports the settlements of a decode-failure branch that lose or
// loop the payload. A branch that also writes the DLQ, before or after the
// settlement, is left to the ordering checks: an unchecked write before an
// Ack is dlqunchecked's, a Term before the write termbeforedlq's (one
// defect, one report).
func (c *checker) judge(dec contract.Decode, branch *ast.BlockStmt, handler *contract.Handler) {
	if !c.m.Messages().RedeliveredVars(dec.Msgs) {
		return // a message nothing redelivers: an Ack or Nak there settles nothing
	}
	wrote := c.branchWrites(branch)
	inspectCalls(branch, func(call *ast.CallExpr) {
		*c.at = call.Pos()
		c.judgeCall(dec, call, wrote)
	})
	if handler == nil || wrote {
		return
	}
	// In a handler, returning nil is an Ack by its caller.
	for _, ret := range c.m.Handlers().NilReturns(branch) {
		d := analysis.Diagnostic{
			Pos: ret.Pos(), End: ret.End(),
			Message: fmt.Sprintf("returning %s on the decode failure of %s makes %s Ack the message: the undecodable payload disappears as if it were handled; "+
				"return the decode error (or dead-letter it and check the write)", handler.Returned(), dec.Name, handler.Caller),
			Related: []analysis.RelatedInformation{{Pos: dec.Call.Pos(), End: dec.Call.End(), Message: "the decode"}},
		}
		d.Related = append(d.Related, handler.Related()...)
		c.m.Report(c.pass, d)
	}
}

// judgeDeferred reports a return on a decode-failure path at which a
// pending `defer msg.Ack()` acks the decoded message: the payload is gone.
// A path that writes the DLQ is left to the ordering checks.
func (c *checker) judgeDeferred(dec contract.Decode, branch, body *ast.BlockStmt) {
	if c.branchWrites(branch) {
		return
	}
	for _, ret := range goast.Returns(branch) {
		d, pending := c.m.Settle().DeferredAckAt(body, ret)
		if !pending || !sameMessage(dec.Msgs, c.m.Messages().Deps(d.Ack.Recv)) {
			continue
		}
		*c.at = ret.Pos()
		c.m.Report(c.pass, analysis.Diagnostic{
			Pos: ret.Pos(), End: ret.End(),
			Message: fmt.Sprintf("the deferred %s runs at this return on the decode failure of %s and drops the undecodable payload as if it were handled: "+
				"%s (5s) and dead-letter it at the delivery cap", d.Ack.Method, dec.Name, c.m.Messages().DelayedRetry(d.Ack.Recv)),
			Related: []analysis.RelatedInformation{
				{Pos: d.Stmt.Pos(), End: d.Stmt.End(), Message: "the deferred " + d.Ack.Method},
				{Pos: dec.Call.Pos(), End: dec.Call.End(), Message: "the decode"},
			},
		})
	}
}

// inspectCalls calls f for each call in n, in source order, outside
// function literals.
func inspectCalls(n ast.Node, f func(*ast.CallExpr)) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			f(n)
		}
		return true
	})
}

func (c *checker) judgeCall(dec contract.Decode, call *ast.CallExpr, wrote bool) {
	if ack, ok := c.m.Messages().AsAckCall(call); ok {
		if !sameMessage(dec.Msgs, c.m.Messages().Deps(ack.Recv)) {
			return
		}
		switch ack.Settlement {
		case profile.Done:
			if !wrote {
				c.report(dec, call, fmt.Sprintf("%s on the decode failure of %s drops the undecodable payload as if it were handled: "+
					"dead-letter it (and check the write) before acking, or %s and dead-letter it at the delivery cap",
					ack.Method, dec.Name, c.m.Messages().DelayedRetry(ack.Recv)))
			}
			return
		case profile.RetryNow:
			c.report(dec, call, fmt.Sprintf("bare %s on the decode failure of %s redelivers the same payload at once, up to the delivery cap: "+
				"%s (5s) and dead-letter it at the cap", ack.Method, dec.Name, c.m.Messages().DelayedRetry(ack.Recv)))
			return
		}
	}
	if h, ok := c.m.Settle().CertainHelperSettle(call, profile.Done); ok && sameMessage(dec.Msgs, h.Msgs) {
		if !wrote {
			c.report(dec, call, fmt.Sprintf("call to %s Acks the message on the decode failure of %s and drops the undecodable payload as if it were handled: "+
				"dead-letter it (and check the write) before acking, or %s and dead-letter it at the delivery cap",
				h.Name, dec.Name, c.m.Messages().DelayedRetry(h.Msg)))
		}
		return
	}
	if h, ok := c.m.Settle().CertainHelperSettle(call, profile.RetryNow); ok && sameMessage(dec.Msgs, h.Msgs) {
		c.report(dec, call, fmt.Sprintf("call to %s bare-Naks the message on the decode failure of %s: the same payload comes back at once, up to the delivery cap; "+
			"%s (5s) and dead-letter it at the cap", h.Name, dec.Name, c.m.Messages().DelayedRetry(h.Msg)))
		return
	}
	if c.judgeConditional(dec, call, wrote) {
		return
	}
	t, ok := c.m.Settle().AsTerm(call)
	if !ok || wrote || t.Writes || !sameMessage(dec.Msgs, t.Msgs) || !c.packageWritesDLQ() {
		return
	}
	subject := t.Name
	if t.Helper {
		subject = "call to " + t.Name + " may Term the message"
		if t.Name == "" {
			subject = "call to a function literal that may Term the message"
		}
	}
	c.report(dec, call, fmt.Sprintf("%s on the decode failure of %s drops the payload without evidence, though this package dead-letters elsewhere: "+
		"write it to the DLQ and check the write before terminating", subject, dec.Name))
}

func (c *checker) report(dec contract.Decode, call *ast.CallExpr, msg string) {
	c.m.Report(c.pass, analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(), Message: msg,
		Related: []analysis.RelatedInformation{{Pos: dec.Call.Pos(), End: dec.Call.End(), Message: "the decode"}},
	})
}

// sameMessage reports whether the decoded and the settled message can be
// the same: they share a message variable, or either is unknown.
func sameMessage(decoded, settled []*types.Var) bool {
	return len(decoded) == 0 || len(settled) == 0 || slices.ContainsFunc(settled, func(v *types.Var) bool { return slices.Contains(decoded, v) })
}

// judgeConditional reports a call of a helper whose settlement depends on
// the error it is given (settle(msg, err): Nak when err != nil, Ack when
// nil), judged with the argument: the decode's own error makes an
// unclassified non-nil effect happen, a nil literal a nil one. It reports
// whether the call was judged so.
func (c *checker) judgeConditional(dec contract.Decode, call *ast.CallExpr, wrote bool) bool {
	for _, h := range c.helpers[call] {
		if !h.Conditional() || !sameMessage(dec.Msgs, c.m.Messages().Deps(h.Msg)) ||
			!contract.HelperSettlesWith(c.pass.TypesInfo, h, c.decodeErr(dec, h)) {
			continue
		}
		given := types.ExprString(h.ErrArg)
		switch h.Settlement {
		case profile.Done:
			if !wrote {
				c.report(dec, call, fmt.Sprintf("call to %s Acks the message on the decode failure of %s (given %s) and drops the undecodable payload as if it were handled: "+
					"dead-letter it (and check the write) before acking, or %s and dead-letter it at the delivery cap",
					h.Name, dec.Name, given, c.m.Messages().DelayedRetry(h.Msg)))
			}
			return true
		case profile.RetryNow:
			c.report(dec, call, fmt.Sprintf("call to %s bare-Naks the message on the decode failure of %s (given %s): the same payload comes back at once, up to the delivery cap; "+
				"%s (5s) and dead-letter it at the cap", h.Name, dec.Name, given, c.m.Messages().DelayedRetry(h.Msg)))
			return true
		}
	}
	return false
}

// decodeErr returns the variable a conditional helper is given when it
// holds the decode's error, or nil.
func (c *checker) decodeErr(dec contract.Decode, h contract.HelperSettle) *types.Var {
	id, ok := ast.Unparen(h.ErrArg).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	if d, ok := c.m.Handlers().DecodeAssignedTo(v, h.Call.Pos()); ok && d.Call == dec.Call {
		return v
	}
	return nil
}
