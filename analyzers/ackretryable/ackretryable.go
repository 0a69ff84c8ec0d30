package ackretryable

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Name is the analyzer's name.
const Name = "ackretryable"

// Analyzer is ackretryable on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns ackretryable built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		FactTypes: []analysis.Fact{new(RegistrationFact), new(DropFact)},
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			c := &checker{pass: pass, m: m, at: at}
			c.run()
		},
	})
}

type checker struct {
	pass *analysis.Pass
	m    *contract.Model
	at   *token.Pos // position being checked, for internal errors
}

func (c *checker) run() {
	c.m.Paths().VisitAckCalls(contract.AckCall.IsAck, c.at, c.check)
	c.checkHandlers()
	c.exportDrops()
	c.checkForeignHandlers()
	c.checkDeferred()
	c.checkHelpers()
	c.exportRegistrations()
	c.checkRegistrations()
}

// checkHelpers reports a call of a helper that Acks the message it is
// given, in a retryable producer's error branch, when the helper's
// condition says it Acks with the argument passed: always, when its error
// parameter is non-nil and unclassified (the branch's error passed), or
// when it is nil (a nil literal passed). Helpers that classify first stay
// quiet.
func (c *checker) checkHelpers() {
	c.m.Paths().VisitHelperSettles(profile.Done, c.at, func(facts contract.PathFacts, h contract.HelperSettle) {
		if facts.ErrorBranch == nil || !c.m.Messages().Redelivered(h.Msg) || !contract.HelperSettlesWith(c.pass.TypesInfo, h, facts.ErrorBranch.Err) {
			return
		}
		d := analysis.Diagnostic{
			Pos: h.Call.Pos(), End: h.Call.End(),
			Message: fmt.Sprintf("call to %s Acks the message in the error branch of %s, which it does not classify: "+
				"classify the error first (errors.As into a %s() carrier) and %s its retry delay",
				h.Name, describe(facts.ErrorBranch), c.m.Config().CarrierMethod, c.m.Messages().DelayedRetry(h.Msg)),
		}
		if h.Inner.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: h.Inner, Message: "the Ack inside " + h.Name})
		}
		c.m.Report(c.pass, d)
	})
}

// checkDeferred reports a return in a retryable producer's error branch
// at which a pending deferred Ack runs: `defer msg.Ack()` at the top of
// the function Acks at every return after it, the error branch's included,
// and so does a deferred literal that only Acks.
// A return after an explicit settlement of the same message in its block
// (NakWithDelay, then return) is quiet: the deferred Ack comes too late to
// change anything.
func (c *checker) checkDeferred() {
	var bodies []*ast.BlockStmt
	for _, bc := range c.m.Paths().AckCallsByBody(contract.AckCall.IsAck) {
		bodies = append(bodies, bc.Body)
	}
	for _, body := range c.m.Paths().DeferredAckBodies() {
		if !slices.Contains(bodies, body) {
			bodies = append(bodies, body)
		}
	}
	for _, body := range bodies {
		paths := c.m.Paths().ErrorPaths(body)
		for _, ret := range goast.Returns(body) {
			d, pending := c.m.Settle().DeferredAckAt(body, ret)
			if !pending {
				continue
			}
			*c.at = ret.Pos()
			if facts, ok := paths.AtReturn(ret); ok && facts.ErrorBranch != nil {
				c.reportDeferred(ret, d, facts.ErrorBranch)
			}
		}
	}
}

func (c *checker) reportDeferred(ret *ast.ReturnStmt, d contract.DeferredAck, b *contract.ErrorBranch) {
	what := describe(b)
	diag := analysis.Diagnostic{
		Pos: ret.Pos(), End: ret.End(),
		Message: fmt.Sprintf("the deferred %s runs at this return in the error branch of %s and acknowledges the transient failure as done: "+
			"%s its retry delay before returning, or Ack explicitly on success only", d.Ack.Method, what, c.m.Messages().DelayedRetry(d.Ack.Recv)),
		Related: []analysis.RelatedInformation{{Pos: d.Stmt.Pos(), End: d.Stmt.End(), Message: "the deferred " + d.Ack.Method}},
	}
	c.m.Report(c.pass, diag)
}

// checkHandlers reports, in each handler of the package, a return of a nil
// error in the error branch of a retryable producer's error: the caller
// Acks the message, and the transient fault becomes a terminal ACK.
func (c *checker) checkHandlers() {
	for _, body := range c.m.Handlers().HandlerBodies() {
		h := c.m.Handlers().HandlerOf(body)
		paths := c.m.Paths().ErrorPaths(body)
		for _, ret := range c.m.Handlers().NilReturns(body) {
			*c.at = ret.Pos()
			facts, ok := paths.AtReturn(ret)
			if !ok || facts.ErrorBranch == nil {
				continue
			}
			c.reportReturn(ret, h, facts.ErrorBranch)
		}
	}
}

func (c *checker) reportReturn(ret *ast.ReturnStmt, h *contract.Handler, b *contract.ErrorBranch) {
	what := describe(b)
	d := analysis.Diagnostic{
		Pos: ret.Pos(), End: ret.End(),
		Message: fmt.Sprintf("%s is dropped: returning %s makes %s Ack the message; return the error (or NakWithDelay its retry delay)",
			what, h.Returned(), h.Caller),
	}
	d.Related = append(d.Related, h.Related()...)
	if b.Producer != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: b.Producer.Pos(), End: b.Producer.End(), Message: "retryable error produced here"})
	}
	c.m.Report(c.pass, d)
}

// check reports ack when every path to it is in the error branch of a
// retryable producer's error that was not classified since.
func (c *checker) check(paths *contract.ErrorPaths, ack contract.AckCall) {
	facts, ok := paths.At(ack.Call)
	if !ok || facts.ErrorBranch == nil || !c.m.Messages().Redelivered(ack.Recv) {
		return
	}
	b := facts.ErrorBranch
	what, name := "a retryable error", "the error"
	if b.Err != nil {
		what, name = "retryable error "+b.Err.Name(), b.Err.Name()
	}
	if b.Producer != nil {
		if callee := goast.CalleeName(b.Producer); callee != "" {
			what += " from " + callee
		}
	}
	d := analysis.Diagnostic{
		Pos: ack.Call.Pos(),
		End: ack.Call.End(),
		Message: fmt.Sprintf("%s in the error branch of %s acknowledges a transient failure as done: "+
			"classify %s first (errors.As into a %s() carrier) and %s its retry delay",
			ack.Method, what, name, c.m.Config().CarrierMethod, c.m.Messages().DelayedRetry(ack.Recv)),
	}
	if b.Producer != nil {
		d.Related = []analysis.RelatedInformation{{Pos: b.Producer.Pos(), End: b.Producer.End(), Message: "retryable error produced here"}}
	}
	c.m.Report(c.pass, d)
}

// describe names the retryable error of an error branch for messages:
// "retryable error err from Reserve".
func describe(b *contract.ErrorBranch) string {
	err, producer := "", ""
	if b.Err != nil {
		err = b.Err.Name()
	}
	if b.Producer != nil {
		producer = goast.CalleeName(b.Producer)
	}
	return describeNames(err, producer)
}

func describeNames(err, producer string) string {
	what := "a retryable error"
	if err != "" {
		what = "retryable error " + err
	}
	if producer != "" {
		what += " from " + producer
	}
	return what
}
