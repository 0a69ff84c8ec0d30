package ackpermanent

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Handlers registered in another package (CONTRACT.md version 3, followed
// as ackretryable and poisonack follow them): facts flow only to
// importers, so a handler declared in package billing and registered in
// main is not known to be a handler while billing is analyzed. Each
// function there that could be a handler (exported, a message parameter,
// an error result) carries the nil returns that would be an Ack after a
// "no retry intent" classification, with no DLQ write of the message
// before them, when its own package dead-letters elsewhere
// (PermanentDropFact); the package that registers it with a bus that Acks
// on nil reports them, at the returns themselves. Decided: the package
// whose dead-letter writes make the Ack a defect is the handler's (where
// the evidence would be written); the registering package need not write
// a DLQ.

// PermanentDropFact marks a function that returns nil after classifying
// an error as having no retry intent, with no DLQ write of its message
// before: a defect if it is a handler whose nil result its caller Acks.
type PermanentDropFact struct {
	Returns []PermanentDrop
}

// PermanentDrop is one such return and its classification, placed
// relative to the function's declaration (contract.Model.Offset).
type PermanentDrop struct {
	Line, Col             int
	Err                   string
	OriginLine, OriginCol int
}

func (*PermanentDropFact) AFact() {}
func (*PermanentDropFact) String() string {
	return "acks a permanent failure without evidence if a caller acks on nil"
}

// exportPermanentDrops exports a PermanentDropFact for each function of
// the package that could be a handler registered elsewhere.
func (c *checker) exportPermanentDrops() {
	for _, d := range c.m.Handlers().HandlerCandidates() {
		fn, ok := c.pass.TypesInfo.Defs[d.Name].(*types.Func)
		paths := c.m.Paths().ErrorPaths(d.Body) // nil for a body the model did not solve: nothing to judge
		if !ok || paths == nil {
			continue
		}
		*c.at = d.Pos()
		var msgs []*types.Var
		params := fn.Signature().Params()
		for i := range params.Len() {
			if c.m.Messages().IsMessage(params.At(i).Type()) {
				msgs = append(msgs, params.At(i))
			}
		}
		var f PermanentDropFact
		var g *writes
		for _, ret := range c.m.Handlers().NilReturns(d.Body) {
			facts, ok := paths.AtReturn(ret)
			if !ok || facts.NoIntent == nil {
				continue
			}
			if g == nil {
				flow := c.m.CFG(d.Body) // built with the paths: never a second time
				if flow == nil {
					break
				}
				g = c.placeWrites(flow)
			}
			if g.precede(ack{node: ret, msgs: msgs}) {
				continue
			}
			l, col, ok := c.m.Offset(fn, ret.Pos())
			if !ok {
				continue
			}
			r := PermanentDrop{Line: l, Col: col, Err: facts.NoIntent.Err.Name(), OriginLine: -1}
			if o := facts.NoIntent.Origin; o != nil {
				if ol, ocol, ok := c.m.Offset(fn, o.Pos()); ok {
					r.OriginLine, r.OriginCol = ol, ocol
				}
			}
			f.Returns = append(f.Returns, r)
		}
		if len(f.Returns) > 0 {
			c.pass.ExportObjectFact(fn, &f)
		}
	}
}

// checkForeignHandlers reports the returns of PermanentDropFact of
// handlers declared in another package and registered here with a bus
// that Acks when they return nil.
func (c *checker) checkForeignHandlers() {
	for _, fh := range c.m.Handlers().ForeignHandlers() {
		var f PermanentDropFact
		if !c.pass.ImportObjectFact(fh.Fn, &f) {
			continue
		}
		*c.at = fh.Call.Pos()
		for _, r := range f.Returns {
			pos := c.m.Settle().SiteIn(fh.Fn, r.Line, r.Col)
			var first []analysis.RelatedInformation
			if r.OriginLine >= 0 {
				first = append(first, analysis.RelatedInformation{Pos: c.m.Settle().SiteIn(fh.Fn, r.OriginLine, r.OriginCol), Message: "classified as having no retry intent here"})
			}
			c.m.Report(c.pass, analysis.Diagnostic{
				Pos: pos, End: pos,
				Message: fmt.Sprintf("returning nil (%s then Acks the message) after %s was classified as a permanent failure drops the message without evidence, "+
					"though its package dead-letters elsewhere: write it to the DLQ, check the write, then Term it", fh.Caller, r.Err),
				Related: fh.Related(first...),
			})
		}
	}
}
