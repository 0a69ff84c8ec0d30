package ackretryable

import (
	"fmt"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// Registrations through an interface whose implementation the registering
// package cannot see (CONTRACT.md version 3, "Through an interface"): the
// service calls s.bus.Subscribe(subj, s.handle) on an interface, and the
// implementation that Acks on nil lives in a package the service does not
// import; main wires the two. The registering package exports, on the
// function holding the registration, what the handler would drop if the
// interface method were a handler caller (RegistrationFact); the first
// package that sees both that function and an implementation that is a
// handler caller (no package it imports directly sees both) reports it, at
// the registration, with the handler's return as a related location.

// RegistrationFact marks a function that registers handlers through an
// interface method no implementation in its sight makes a handler
// parameter, with the returns of those handlers that drop a retryable
// error.
type RegistrationFact struct {
	Regs []Registration
}

// Registration is one such registration. Places are absolute lines and
// columns in the file named File of the function's package.
type Registration struct {
	IfacePkg, Iface, Method string // the interface method, by package path and names
	Param                   int
	File                    string
	Line, Col               int
	Caller, Handler         string // as written: s.bus.Subscribe, s.handle
	Drops                   []Drop
}

// Drop is a return of nil in a retryable producer's error branch.
type Drop struct {
	File          string
	Line, Col     int
	Err, Producer string
}

func (*RegistrationFact) AFact() {}
func (f *RegistrationFact) String() string {
	s := "registers through interface"
	for _, r := range f.Regs {
		s += fmt.Sprintf(" %s.%s param %d (%d drops)", r.Iface, r.Method, r.Param, len(r.Drops))
	}
	return s
}

// exportRegistrations exports the package's pending registrations whose
// handlers drop a retryable error.
func (c *checker) exportRegistrations() {
	facts := make(map[*types.Func]*RegistrationFact)
	var order []*types.Func
	for _, p := range c.m.Handlers().PendingRegistrations() {
		fn, ok := c.pass.TypesInfo.Defs[p.Decl.Name].(*types.Func)
		paths := c.m.Paths().ErrorPaths(p.Body)
		if !ok || paths == nil || p.Iface.Pkg() == nil {
			continue
		}
		*c.at = p.Call.Pos()
		at := c.pass.Fset.Position(p.Call.Pos())
		r := Registration{IfacePkg: p.Iface.Pkg().Path(), Iface: p.Iface.Name(), Method: p.Method.Name(), Param: p.Param,
			File: filepath.Base(at.Filename), Line: at.Line, Col: at.Column, Caller: p.Caller, Handler: types.ExprString(p.Call.Args[p.Param])}
		for _, ret := range c.m.Handlers().NilReturns(p.Body) {
			facts, ok := paths.AtReturn(ret)
			if !ok || facts.ErrorBranch == nil {
				continue
			}
			rp := c.pass.Fset.Position(ret.Pos())
			d := Drop{File: filepath.Base(rp.Filename), Line: rp.Line, Col: rp.Column}
			if b := facts.ErrorBranch; b.Err != nil {
				d.Err = b.Err.Name()
			}
			if b := facts.ErrorBranch; b.Producer != nil {
				d.Producer = goast.CalleeName(b.Producer)
			}
			r.Drops = append(r.Drops, d)
		}
		if len(r.Drops) == 0 {
			continue
		}
		if facts[fn] == nil {
			facts[fn] = &RegistrationFact{}
			order = append(order, fn)
		}
		facts[fn].Regs = append(facts[fn].Regs, r)
	}
	for _, fn := range order {
		c.pass.ExportObjectFact(fn, facts[fn])
	}
}

// checkRegistrations reports the registrations of the dependencies whose
// interface method becomes a handler parameter here.
func (c *checker) checkRegistrations() {
	for _, of := range c.pass.AllObjectFacts() {
		f, ok := of.Fact.(*RegistrationFact)
		fn, isFn := of.Object.(*types.Func)
		if !ok || !isFn || fn.Pkg() == c.pass.Pkg {
			continue
		}
		for _, r := range f.Regs {
			c.checkRegistration(fn, r)
		}
	}
}

func (c *checker) checkRegistration(fn *types.Func, r Registration) {
	ipkg := findImport(c.pass.Pkg, r.IfacePkg, map[*types.Package]bool{})
	if ipkg == nil {
		return
	}
	iface, ok := ipkg.Scope().Lookup(r.Iface).(*types.TypeName)
	if !ok {
		return
	}
	impl, ack := c.m.Handlers().ImplementationCaller(iface, r.Method, r.Param)
	if impl == nil || c.seenBelow(fn.Pkg(), impl.Pkg()) {
		return
	}
	call := c.m.Settle().SiteInFile(fn, r.File, r.Line, r.Col)
	*c.at = call
	recv := types.TypeString(impl.Signature().Recv().Type(), (*types.Package).Name)
	method := recv + "." + r.Method
	if _, ptr := impl.Signature().Recv().Type().(*types.Pointer); ptr {
		method = "(" + recv + ")." + r.Method
	}
	for _, d := range r.Drops {
		ret := c.m.Settle().SiteInFile(fn, d.File, d.Line, d.Col)
		diag := analysis.Diagnostic{
			Pos: call, End: call,
			Message: fmt.Sprintf("%s is dropped by handler %s: returning nil makes %s Ack the message (%s implements %s.%s); return the error (or NakWithDelay its retry delay)",
				describeNames(d.Err, d.Producer), r.Handler, r.Caller, recv, ipkg.Name(), r.Iface),
			Related: []analysis.RelatedInformation{{Pos: ret, End: ret, Message: "the handler returns nil here"}},
		}
		if ack.IsValid() {
			diag.Related = append(diag.Related, analysis.RelatedInformation{Pos: ack, Message: method + " Acks the message here"})
		}
		c.m.Report(c.pass, diag)
	}
}

// seenBelow reports whether a package the current one imports directly
// sees (is or imports, directly or not) both a and b: that package reports.
func (c *checker) seenBelow(a, b *types.Package) bool {
	for _, imp := range c.pass.Pkg.Imports() {
		if sees(imp, a, map[*types.Package]bool{}) && sees(imp, b, map[*types.Package]bool{}) {
			return true
		}
	}
	return false
}

// sees reports whether p is target or imports it, directly or not.
func sees(p, target *types.Package, seen map[*types.Package]bool) bool {
	if p == target {
		return true
	}
	if seen[p] {
		return false
	}
	seen[p] = true
	for _, imp := range p.Imports() {
		if sees(imp, target, seen) {
			return true
		}
	}
	return false
}

// findImport returns the package of path that p imports, directly or not.
func findImport(p *types.Package, path string, seen map[*types.Package]bool) *types.Package {
	if p.Path() == path {
		return p
	}
	if seen[p] {
		return nil
	}
	seen[p] = true
	for _, imp := range p.Imports() {
		if found := findImport(imp, path, seen); found != nil {
			return found
		}
	}
	return nil
}
