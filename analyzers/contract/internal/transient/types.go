package transient

import (
	"go/ast"
	"go/types"
	"regexp"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"golang.org/x/tools/go/cfg"
)

// maxVisits bounds the work of the transient-path fixpoint per block, a
// safety net: the lattice has finite height and the transfer functions are
// monotone, so a function that does not settle within it is a bug, counted
// in Model.Diverged (a test keeps it at zero).
const maxVisits = 64

// pathAnalysis computes, over one function body's control-flow graph, the
// flowState at the start of every block.
type pathAnalysis struct {
	m     *Result
	body  *ast.BlockStmt
	g     *cfg.CFG
	entry []*flowState // per block index; nil when unreached

	tagOf      map[ast.Expr]ast.Expr       // case value of a tagged switch -> its tag
	typeTests  map[*cfg.Block]typeTest     // block that ends in a type-switch test
	rangeVars  map[ast.Expr]bool           // range key and value expressions
	calls      map[*ast.CallExpr]nodeRef   // calls evaluated by the body's nodes
	returns    map[*ast.ReturnStmt]nodeRef // return statements
	tests      map[ast.Expr]*errTest       // memo of testOf
	negated    map[*errTest]*errTest       // memo of negate
	retryable  map[ast.Expr]*ast.CallExpr  // memo of mayBeRetryable: producer call or noCall
	isRetrying map[ast.Expr]bool           // memo of mayBeRetryable
	unfollowed map[*types.Var]bool         // memo of followed: addressed or assigned in a literal
	converged  bool
}

// typeTest is one test of a case clause of a type switch over an error
// (go/cfg makes one per type of the clause). What its edges tell is read
// from the clause (refineType), not from which of its types go/cfg
// tests there.
type typeTest struct {
	err ast.Expr // the switched expression
	cc  *ast.CaseClause
	// last is set on the clause's last test: its false edge leaves the
	// clause; the false edge of the others leads to the next test.
	last bool
}

// nodeRef locates a call: block index and index of the node holding it.
type nodeRef struct{ block, node int }

// Inputs are what Build reads.
type Inputs struct {
	Info          *types.Info
	Pkg           *types.Package
	CarrierMethod string
	Predicate     *regexp.Regexp // names of predicates that may classify (TransientPredicate)
	Prod          *producers.Result
	Imported      map[*types.Func]ClassifierKind // ClassifierFact
	Defs          func() *defs.Index
	Graphs        *cfgs.Graphs
	OnSolve       func(body *ast.BlockStmt) // for tests: called with each body solved
	Classify      bool                      // the gate: infer the package's classifiers
	Decls         []*ast.FuncDecl
}

// Result is the package's classifiers, and the solver of the transient
// paths of a body. It is complete when Build returns and read-only
// afterwards: Solve computes without writing into it.
type Result struct {
	info          *types.Info
	pkg           *types.Package
	carrierMethod string
	predicate     *regexp.Regexp
	prod          *producers.Result
	imported      map[*types.Func]ClassifierKind
	defs          func() *defs.Index
	graphs        *cfgs.Graphs
	onSolve       func(body *ast.BlockStmt)

	classifiers map[*types.Func]ClassifierKind
	// solved are the solutions of the classifier inference that stayed
	// exact (dropSolvedUsing): Solve returns them rather than solving again.
	solved map[*ast.BlockStmt]*pathAnalysis
}

// errVar returns the error variable e names, or nil for any other error
// expression (all of which share the nil key).
func (p *pathAnalysis) errVar(e ast.Expr) *types.Var {
	if v := p.varOf(e); v != nil && gotypes.IsErrorish(v.Type()) {
		return v
	}
	return nil
}

// varOf returns the local or package variable an expression names.
func (p *pathAnalysis) varOf(e ast.Expr) *types.Var {
	v := defs.VarOf(p.m.info, e)
	if v == nil || v.IsField() {
		return nil
	}
	return v
}

// Classifiers returns the package's classifiers.
func (m *Result) Classifiers() map[*types.Func]ClassifierKind { return m.classifiers }

// ClassifierKind returns how fn (any package) classifies its error
// argument as transient, or 0 when it does not: a DelayClassifier returns
// (time.Duration, bool) and is ok only when errors.As found a carrier, a
// PredicateClassifier returns a bool that is true only then.
func (m *Result) ClassifierKind(fn *types.Func) ClassifierKind {
	if fn == nil {
		return 0
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.classifiers[fn]
	}
	return m.imported[fn]
}

// ClassifierKind says how a classifier function reports retry intent.
type ClassifierKind int

const (
	// DelayClassifier returns (time.Duration, bool), ok only when the error
	// carries a retry delay.
	DelayClassifier ClassifierKind = iota + 1
	// PredicateClassifier returns a bool that is true only when the error
	// carries retry intent.
	PredicateClassifier
)
