package ackpermanent

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// Name is the analyzer's name.
const Name = "ackpermanent"

// Analyzer is ackpermanent on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns ackpermanent built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		FactTypes: []analysis.Fact{new(PermanentDropFact)},
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

// ack is one Ack of a message in a body: an ack call (or a helper or
// literal that Acks for certain), a handler's `return nil`, or a return at
// which a deferred Ack runs.
type ack struct {
	node     ast.Node // the call, or the return statement
	call     *contract.SettleCall
	handler  *contract.Handler
	deferred *contract.DeferredAck
	msgs     []*types.Var // the messages it Acks; empty when not known
}

func (c *checker) run() {
	if c.pass.TypesInfo == nil {
		return
	}
	c.checkForeignHandlers() // judged by the facts of the handler's package
	if !c.m.DLQ().WritesDLQ() {
		return // a package that keeps no evidence anywhere: nothing to compare with
	}
	c.exportPermanentDrops()
	for _, body := range c.bodies() {
		if ast.IsGenerated(c.fileOf(body)) {
			continue
		}
		*c.at = body.Pos()
		c.checkBody(body)
	}
}

// bodies returns the bodies that hold an Ack in any of its forms, in
// source order, once each.
func (c *checker) bodies() []*ast.BlockStmt {
	all := slices.Concat(c.m.Paths().AckBodies(), c.m.Handlers().HandlerBodies(), c.m.Paths().DeferredAckBodies())
	for _, bc := range c.m.Paths().AckCallsByBody(contract.AckCall.IsAck) {
		all = append(all, bc.Body)
	}
	slices.SortFunc(all, func(a, b *ast.BlockStmt) int { return goast.ComparePos(c.pass.Fset, a.Pos(), b.Pos()) })
	return slices.Compact(all)
}

// fileOf returns the file that holds n.
func (c *checker) fileOf(n ast.Node) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= n.Pos() && n.Pos() <= f.FileEnd {
			return f
		}
	}
	return &ast.File{}
}

// checkBody reports the Acks of body on a path where an error was
// classified as having no retry intent, that no DLQ write of the message
// precedes.
func (c *checker) checkBody(body *ast.BlockStmt) {
	paths := c.m.Paths().ErrorPaths(body)
	flow := c.m.CFG(body)
	if paths == nil || flow == nil {
		return
	}
	var g *writes
	for _, a := range c.acks(body) {
		*c.at = a.node.Pos()
		var facts contract.PathFacts
		var ok bool
		if ret, isRet := a.node.(*ast.ReturnStmt); isRet {
			facts, ok = paths.AtReturn(ret)
		} else {
			facts, ok = paths.At(a.node.(*ast.CallExpr))
		}
		if !ok || facts.NoIntent == nil || !c.m.Messages().RedeliveredVars(a.msgs) {
			continue // nothing redelivers the message: its Ack settles nothing
		}
		if g == nil {
			g = c.placeWrites(flow)
		}
		if g.precede(a) {
			continue
		}
		c.report(a, facts.NoIntent.Err, facts.NoIntent.Origin)
	}
}

// acks returns the Acks of body, in source order.
func (c *checker) acks(body *ast.BlockStmt) []ack {
	var out []ack
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.DeferStmt, *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if s, ok := c.m.Settle().AsAck(n); ok && !s.Writes {
				out = append(out, ack{node: n, call: &s, msgs: s.Msgs})
			}
		}
		return true
	})
	h := c.m.Handlers().HandlerOf(body)
	if h != nil {
		for _, ret := range c.m.Handlers().NilReturns(body) {
			out = append(out, ack{node: ret, handler: h, msgs: h.Msgs})
		}
	}
	for _, ret := range goast.Returns(body) {
		if d, pending := c.m.Settle().DeferredAckAt(body, ret); pending {
			out = append(out, ack{node: ret, deferred: &d, msgs: c.m.Messages().Deps(d.Ack.Recv)})
		}
	}
	slices.SortStableFunc(out, func(a, b ack) int { return int(a.node.Pos() - b.node.Pos()) })
	return out
}

// writes is a body's CFG with the blocks of its DLQ writes (plain calls:
// a deferred write runs after the Ack, one started with go is not ordered
// before it).
type writes struct {
	reach *dataflow.Reach
	at    map[ast.Node]place // the calls and return statements of the body, placed
	list  []place
}

// place is where a node runs: its block and the index of the node there.
type place struct {
	block *cfg.Block
	node  int
	n     ast.Node
	write *contract.DLQWrite
}

func (c *checker) placeWrites(flow *cfg.CFG) *writes {
	w := &writes{reach: dataflow.NewReach(flow), at: make(map[ast.Node]place)}
	for _, b := range flow.Blocks {
		if !b.Live {
			continue
		}
		for i, n := range b.Nodes {
			if ret, ok := n.(*ast.ReturnStmt); ok {
				w.at[ret] = place{block: b, node: i, n: ret}
			}
			ast.Inspect(n, func(x ast.Node) bool {
				switch x := x.(type) {
				case *ast.FuncLit, *ast.DeferStmt, *ast.GoStmt:
					return false
				case *ast.CallExpr:
					p := place{block: b, node: i, n: x}
					if dw, ok := c.m.DLQ().AsDLQWrite(x); ok {
						p.write = &dw
						w.list = append(w.list, p)
					}
					w.at[x] = p
				}
				return true
			})
		}
	}
	return w
}

// precede reports whether a DLQ write that can concern a's message runs
// before a on some path (checked or not: the ordering checks judge the
// write itself).
func (w *writes) precede(a ack) bool {
	to, ok := w.at[a.node]
	if !ok {
		return true // not placed: doubtful, quiet
	}
	for _, p := range w.list {
		if !pairs(a.msgs, p.write.Msgs) {
			continue
		}
		if p.block == to.block {
			if p.node < to.node || p.node == to.node && p.n.End() <= a.node.End() && p.n != a.node {
				return true
			}
			continue
		}
		reached := w.reach.After(p.block, func(b *cfg.Block) bool { return b == to.block })
		if reached != nil {
			return true
		}
	}
	return false
}

// pairs reports whether a write can concern the Acked message: it takes
// it or a value derived from it, or no message-derived value at all (the
// contract's "same message" rule).
func pairs(acked, written []*types.Var) bool {
	if len(acked) == 0 || len(written) == 0 {
		return true
	}
	for _, v := range written {
		if slices.Contains(acked, v) {
			return true
		}
	}
	return false
}

// report reports a, an Ack after the classification origin of err said
// "no retry intent".
func (c *checker) report(a ack, err *types.Var, origin ast.Node) {
	var subject string
	var related []analysis.RelatedInformation
	switch {
	case a.deferred != nil:
		subject = "the deferred " + a.deferred.Ack.Method + " (running at this return)"
		related = append(related, analysis.RelatedInformation{Pos: a.deferred.Stmt.Pos(), End: a.deferred.Stmt.End(), Message: "the deferred " + a.deferred.Ack.Method})
	case a.handler != nil:
		subject = "returning nil (" + a.handler.Caller + " then Acks the message)"
		if a.handler.Ack.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: a.handler.Ack, Message: a.handler.Caller + " Acks the message here"})
		}
	case a.call.Helper && a.call.Name != "":
		subject = "call to " + a.call.Name + " (it Acks the message)"
		if a.call.Inner.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: a.call.Inner, Message: "the Ack inside " + a.call.Name})
		}
	default:
		subject = a.call.Name
		if subject == "" {
			subject = "call to a function literal that Acks the message"
		}
	}
	if origin != nil {
		related = append([]analysis.RelatedInformation{{Pos: origin.Pos(), End: origin.End(),
			Message: "classified as having no retry intent here"}}, related...)
	}
	c.m.Report(c.pass, analysis.Diagnostic{
		Pos: a.node.Pos(), End: a.node.End(),
		Message: fmt.Sprintf("%s after %s was classified as a permanent failure drops the message without evidence, "+
			"though this package dead-letters elsewhere: write it to the DLQ, check the write, then Term it", subject, err.Name()),
		Related: related,
	})
}
