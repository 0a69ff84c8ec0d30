package ackretryable

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// Name is the analyzer's name.
const Name = "ackretryable"

// Analyzer is ackretryable on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns ackretryable built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:             Name,
		Doc:              contract.AnalyzerDoc(docSource),
		URL:              "https://github.com/retrylint/retrylint/tree/main/analyzers/ackretryable",
		Requires:         []*analysis.Analyzer{model, inspect.Analyzer},
		RunDespiteErrors: true,
		Run: func(pass *analysis.Pass) (_ any, err error) {
			c := &checker{pass: pass, m: pass.ResultOf[model].(*contract.Model)}
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("%s: internal error at %s: %v", Name, pass.Fset.Position(c.at), r)
				}
			}()
			c.run()
			return nil, nil
		},
	}
}

type checker struct {
	pass *analysis.Pass
	m    *contract.Model
	at   token.Pos // position being checked, for internal errors
}

// funcAcks is the Acks of one function body, in source order.
type funcAcks struct {
	body *ast.BlockStmt
	acks []contract.AckCall
}

func (c *checker) run() {
	if c.pass.TypesInfo == nil {
		return
	}
	for _, fn := range c.candidates() {
		c.at = fn.body.Pos()
		paths := c.m.ErrorPaths(fn.body)
		for _, ack := range fn.acks {
			c.at = ack.Call.Pos()
			c.check(paths, ack)
		}
	}
}

// candidates returns the functions holding an Ack, AckSync or DoubleAck,
// so that only they get a control-flow analysis.
func (c *checker) candidates() []*funcAcks {
	ins := c.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	byBody := make(map[*ast.BlockStmt]*funcAcks)
	var out []*funcAcks
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		c.at = n.Pos()
		ack, ok := c.m.AsAckCall(n.(*ast.CallExpr))
		if !ok || !ack.IsAck() {
			return true
		}
		body := contract.EnclosingBody(stack)
		if body == nil {
			return true
		}
		fn := byBody[body]
		if fn == nil {
			fn = &funcAcks{body: body}
			byBody[body] = fn
			out = append(out, fn)
		}
		fn.acks = append(fn.acks, ack)
		return true
	})
	return out
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
			"classify %s first (errors.As into a %s() carrier) and NakWithDelay its retry delay",
			ack.Method, what, name, c.m.Config().CarrierMethod),
	}
	if b.Producer != nil {
		d.Related = []analysis.RelatedInformation{{Pos: b.Producer.Pos(), End: b.Producer.End(), Message: "retryable error produced here"}}
	}
	c.m.Report(c.pass, d)
}
