package ackpermanent

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/foreign"
)

// Handlers registered in another package (CONTRACT.md version 3, followed
// as every check follows them: analyzers/internal/foreign): facts flow
// only to importers, so a handler declared in package billing and
// registered in main is not known to be a handler while billing is
// analyzed. Each function there that could be a handler (exported, a
// message parameter, an error result) carries the nil returns that would
// be an Ack after a "no retry intent" classification, with no DLQ write
// of the message before them, when its own package dead-letters elsewhere
// (PermanentDropFact); the package that registers it with a bus that Acks
// on nil reports them, at the registration. Decided: the package whose
// dead-letter writes make the Ack a defect is the handler's (where the
// evidence would be written); the registering package need not write a
// DLQ.

// PermanentDropFact marks a function that returns nil after classifying
// an error as having no retry intent, with no DLQ write of its message
// before: a defect if it is a handler whose nil result its caller Acks.
type PermanentDropFact = foreign.Fact[PermanentDrop]

// PermanentDrop is one such return and its classification, placed
// relative to the function's declaration (foreign.Place; Origin is
// foreign.None when the classification is not in the function).
type PermanentDrop struct {
	At     foreign.Place
	Err    string
	Origin foreign.Place
}

// Return is where the return is.
func (r PermanentDrop) Return() foreign.Place { return r.At }

// Summary is PermanentDropFact's String.
func (PermanentDrop) Summary() string {
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
		msgs := c.m.Messages().MessageParams(d.Type)
		var rows []PermanentDrop
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
			at, ok := foreign.At(c.m, fn, ret.Pos())
			if !ok {
				continue
			}
			r := PermanentDrop{At: at, Err: facts.NoIntent.Err.Name(), Origin: foreign.None}
			if o := facts.NoIntent.Origin; o != nil {
				r.Origin = foreign.AtOrNone(c.m, fn, o.Pos())
			}
			rows = append(rows, r)
		}
		foreign.Export(c.pass, fn, rows)
	}
}

// checkForeignHandlers reports, at the registration, the returns of
// PermanentDropFact of handlers declared in another package and
// registered here with a bus that Acks when they return nil.
func (c *checker) checkForeignHandlers() {
	foreign.Report(c.pass, c.m, c.at, func(f foreign.Finding[PermanentDrop]) (string, []analysis.RelatedInformation) {
		var related []analysis.RelatedInformation
		if o := f.Pos(f.Row.Origin); o.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: o, Message: "classified as having no retry intent here"})
		}
		return fmt.Sprintf("handler %s returning nil (%s then Acks the message) after %s was classified as a permanent failure drops the message without evidence, "+
			"though its package dead-letters elsewhere: write it to the DLQ, check the write, then Term it", f.Name, f.Handler.Caller, f.Row.Err), related
	})
}
