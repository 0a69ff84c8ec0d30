package ackretryable

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// Name is the analyzer's name.
const Name = "ackretryable"

// Analyzer is ackretryable on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns ackretryable built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return contract.NewCheck(model, contract.CheckSpec{
		Name:      Name,
		DocSource: docSource,
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
	c.m.VisitAckCalls(contract.AckCall.IsAck, c.at, c.check)
	c.checkHandlers()
}

// checkHandlers reports, in each handler of the package, a return of a nil
// error in the error branch of a retryable producer's error: the caller
// Acks the message, and the transient fault becomes a terminal ACK.
func (c *checker) checkHandlers() {
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.FuncDecl:
				body = n.Body
			case *ast.FuncLit:
				body = n.Body
			}
			h := c.m.HandlerOf(body)
			if body == nil || h == nil {
				return true
			}
			paths := c.m.ErrorPaths(body)
			for _, ret := range c.m.NilReturns(body) {
				*c.at = ret.Pos()
				facts, ok := paths.AtReturn(ret)
				if !ok || facts.ErrorBranch == nil {
					continue
				}
				c.reportReturn(ret, h, facts.ErrorBranch)
			}
			return true
		})
	}
}

func (c *checker) reportReturn(ret *ast.ReturnStmt, h *contract.Handler, b *contract.ErrorBranch) {
	what := "a retryable error"
	if b.Err != nil {
		what = "retryable error " + b.Err.Name()
	}
	if b.Producer != nil {
		if callee := contract.CalleeName(b.Producer); callee != "" {
			what += " from " + callee
		}
	}
	d := analysis.Diagnostic{
		Pos: ret.Pos(), End: ret.End(),
		Message: fmt.Sprintf("%s is dropped: returning nil makes %s Ack the message; return the error (or NakWithDelay its retry delay)",
			what, h.Caller),
	}
	if h.Ack.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: h.Ack, Message: h.Caller + " Acks the message here"})
	}
	if b.Producer != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: b.Producer.Pos(), End: b.Producer.End(), Message: "retryable error produced here"})
	}
	c.m.Report(c.pass, d)
}

// check reports ack when every path to it is in the error branch of a
// retryable producer's error that was not classified since.
func (c *checker) check(paths *contract.ErrorPaths, ack contract.AckCall) {
	facts, ok := paths.At(ack.Call)
	if !ok || facts.ErrorBranch == nil {
		return
	}
	b := facts.ErrorBranch
	what, name := "a retryable error", "the error"
	if b.Err != nil {
		what, name = "retryable error "+b.Err.Name(), b.Err.Name()
	}
	if b.Producer != nil {
		if callee := contract.CalleeName(b.Producer); callee != "" {
			what += " from " + callee
		}
	}
	d := analysis.Diagnostic{
		Pos: ack.Call.Pos(),
		End: ack.Call.End(),
		Message: fmt.Sprintf("%s in the error branch of %s acknowledges a transient failure as done: "+
			"classify %s first (errors.As into a %s() carrier) and %s its retry delay",
			ack.Method, what, name, c.m.Config().CarrierMethod, c.m.DelayedRetry(ack.Recv)),
	}
	if b.Producer != nil {
		d.Related = []analysis.RelatedInformation{{Pos: b.Producer.Pos(), End: b.Producer.End(), Message: "retryable error produced here"}}
	}
	c.m.Report(c.pass, d)
}
