package ackretryable

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/foreign"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// Handlers registered in another package (CONTRACT.md version 2, followed
// as every check follows them: analyzers/internal/foreign): facts flow
// only to importers, so a handler declared in package svc and registered
// in main is not known to be a handler while svc is analyzed. Each
// exported function there that could be a handler (a message parameter,
// an error result) or a typed handler (a context and a decoded payload,
// registered through middleware such as bus.JSON) carries its nil returns
// in a retryable producer's error branch (DropFact); the package that
// registers it with a bus that Acks on nil reports them, at the
// registration.

// DropFact marks a function that returns nil in the error branch of a
// retryable producer's error, unclassified: a defect if a caller Acks when
// it returns nil.
type DropFact = foreign.Fact[ForeignDrop]

// ForeignDrop is one such return (relative to the function's declaration,
// foreign.Place), with the error's and the producer's names ("" when
// unnamed).
type ForeignDrop struct {
	At            foreign.Place
	Err, Producer string
}

// Return is where the return is.
func (r ForeignDrop) Return() foreign.Place { return r.At }

// Summary is DropFact's String.
func (ForeignDrop) Summary() string { return "drops a retryable error if a caller acks on nil" }

// exportDrops exports a DropFact for each exported function of the
// package that could be a handler, or a typed handler, registered
// elsewhere.
func (c *checker) exportDrops() {
	for _, d := range c.m.Handlers().ExportedCandidates() {
		fn, ok := c.pass.TypesInfo.Defs[d.Name].(*types.Func)
		paths := c.m.Paths().ErrorPaths(d.Body) // nil for a body the model did not solve: nothing to judge
		if !ok || paths == nil {
			continue
		}
		*c.at = d.Pos()
		var rows []ForeignDrop
		for _, ret := range c.m.Handlers().NilReturns(d.Body) {
			facts, ok := paths.AtReturn(ret)
			at, placed := foreign.At(c.m, fn, ret.Pos())
			if !ok || facts.ErrorBranch == nil || !placed {
				continue
			}
			r := ForeignDrop{At: at}
			if b := facts.ErrorBranch; b.Err != nil {
				r.Err = b.Err.Name()
			}
			if b := facts.ErrorBranch; b.Producer != nil {
				r.Producer = goast.CalleeName(b.Producer)
			}
			rows = append(rows, r)
		}
		foreign.Export(c.pass, fn, rows)
	}
}

// checkForeignHandlers reports, at the registration, the returns of
// DropFact of handlers declared in another package and registered here
// with a bus that Acks on nil: the package that declares a handler cannot
// know it is one.
func (c *checker) checkForeignHandlers() {
	foreign.Report(c.pass, c.m, c.at, func(f foreign.Finding[ForeignDrop]) (string, []analysis.RelatedInformation) {
		return fmt.Sprintf("%s is dropped by handler %s: returning nil makes %s Ack the message; return the error (or NakWithDelay its retry delay)",
			describeNames(f.Row.Err, f.Row.Producer), f.Name, f.Handler.Caller), nil
	})
}
