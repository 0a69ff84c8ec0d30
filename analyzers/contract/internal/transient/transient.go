// Package transient is the contract model's transient paths (CONTRACT.md):
// code reached only when a retry classification succeeded (the ok side of
// d, ok := RetryDelay(err), the true side of errors.As into a carrier, of
// a retry predicate, a type switch case or assertion on a carrier type),
// or the error branch of a retryable producer's error. A classification
// that fails, an error identified as something else (errors.Is, ==, a non-
// carrier type), and replacing the error with a new one end the path. A
// local variable assigned a constant on a transient path (act = retry)
// makes its tests for that constant (switch act { case retry: }, if act ==
// retry) transient when every path that can pass them assigned it there
// (values.go). The analysis is a forward dataflow over the function's
// control-flow graph: a fact holds at a point when it holds on every path
// that reaches it, so doubtful points stay out.
//
// A type switch's case is read from the syntax, not from the order in
// which go/cfg creates its test blocks: go/cfg tests a clause of n types
// in n chained blocks, each branching to the clause's body or to the next
// test. Every body edge of the clause knows that one of its types matched:
// for one type, what that type's match tells (with the clause's bound
// variable); for several, the join of what each type's match tells. The
// false edge of the clause's last test (the one whose false successor is
// not a test of the same clause) knows that none matched: each type's
// failure, in the clause's order. The false edges between the tests of a
// clause carry nothing.
//
// The state is composed of named lattices (lattices.go: must- and
// may-booleans, values every path agrees on, must-sets, and the pointwise
// lattice of a fact per variable), each with its join, tested with the
// semilattice laws: an error variable's facts are a must part and a may
// part joined field by field, the state a varMap per kind of fact; the
// equality and the least element follow. A new fact is a field of a named
// lattice type, its line in its part's join (a test fails without it) and
// its transfer.
//
// The files are layered, each reading only those below it: lattices.go
// (the named lattices), lattice.go (the facts), types.go (the analysis
// and its result), state.go (joins and the state's operations), values.go,
// classify.go, assign.go and refine.go (the transfer functions), solve.go
// (the solver), classifiers.go (the classifier inference) and
// transient.go (Build, Solve and what a solution answers). The stage reads
// the producers and defs stages, the CFGs and the dependencies' classifier
// facts.
package transient

import (
	"go/ast"
	"go/types"
	"slices"
	"sort"
)

// Build infers the package's classifiers (when in.Classify).
func Build(in Inputs) *Result {
	m := &Result{info: in.Info, pkg: in.Pkg, carrierMethod: in.CarrierMethod, predicate: in.Predicate, prod: in.Prod,
		imported: in.Imported, defs: in.Defs, graphs: in.Graphs, onSolve: in.OnSolve}
	if in.Classify {
		m.inferClassifiers(in.Decls)
	}
	return m
}

// ErrorPaths is the transient-path analysis of one function body: what
// holds at each call the body evaluates. It is computed whole and never
// changes, so that checks running in parallel can share it.
type ErrorPaths struct {
	at       map[*ast.CallExpr]*callPaths
	atReturn map[*ast.ReturnStmt]*callPaths
}

// callPaths is what holds just before one call.
type callPaths struct {
	facts    PathFacts
	noIntent []*types.Var // error variables whose exact retry classification failed on every path
	vars     map[*types.Var]VarFacts
}

// VarFacts is what holds of one error variable on every path to a point.
type VarFacts struct {
	Nil        bool // it is nil
	NonNil     bool // it is not nil
	Transient  bool // a retry classification of it succeeded
	NoIntent   bool // an exact retry classification of it failed
	Classified bool // it was inspected (on some path) since it was assigned
}

// VarAt returns what holds of the error variable v just before call.
func (ep *ErrorPaths) VarAt(call *ast.CallExpr, v *types.Var) (VarFacts, bool) {
	if ep == nil {
		return VarFacts{}, false
	}
	cp, found := ep.at[call]
	if !found {
		return VarFacts{}, false
	}
	return cp.vars[v], true
}

// PathFacts is what holds on every path that reaches a point.
type PathFacts struct {
	// Transient is set on a transient path.
	Transient *TransientPath
	// ErrorBranch is set in the error branch of a retryable producer's
	// error, where that error was not classified since it was produced.
	ErrorBranch *ErrorBranch
	// ErrorPath is set when some error is known to be non-nil (whatever its
	// origin) or classified as transient.
	ErrorPath bool
	// NoIntent is set where an error known to be non-nil was classified
	// as carrying no retry intent on every path (the failing side of a
	// retry classification call: a delay classifier's !ok, errors.As or
	// errors.AsType into a carrier, a retry predicate, known by its fact
	// or by its name; not a type assertion), and was identified as a known
	// error (errors.Is, a type switch or assertion on another type) on none.
	NoIntent *NoIntentPath
	// Unclassified is an error variable known to be non-nil on every path
	// and inspected on none since it was assigned (no errors.Is, errors.As,
	// type switch, comparison or predicate): its origin is all the code
	// knows of it. Nil when there is none; the first declared otherwise.
	Unclassified *types.Var
	// ZeroDelay is set when a delay is known to be <= 0: guarded by d <= 0,
	// d == 0, or the false side of d > 0; or a classification of an error
	// succeeded where, were it to, its delay is known to be <= 0: after
	// the false side of ok && d > 0 (d, ok a classification of the same,
	// unchanged error), or after a failed classification joined such paths.
	ZeroDelay bool
}

// TransientPath says why a path is transient.
type TransientPath struct {
	// Err is the error variable, nil when the error is not held in one.
	Err *types.Var
	// Classified is set when a retry classification succeeded; otherwise
	// the path is the error branch of a retryable producer's error.
	Classified bool
	// Origin is the classification, or the producer call, when every path
	// agrees on one.
	Origin ast.Node
	// Delay is the time.Duration variable the classification bound the
	// delay to (d in d, ok := RetryDelay(err)), or nil.
	Delay *types.Var
	// Carrier is the carrier variable the classification bound (rd in
	// errors.As(err, &rd)), whose delay method yields the delay, or nil.
	Carrier *types.Var
}

// NoIntentPath says which error was classified as permanent.
type NoIntentPath struct {
	// Err is the error variable.
	Err *types.Var
	// Origin is the failed classification, when every path agrees on one.
	Origin ast.Node
}

// ErrorBranch is the unclassified error branch of a retryable producer.
type ErrorBranch struct {
	// Err is the error variable, nil when the error is not held in one.
	Err *types.Var
	// Producer is the retryable producer's call, when there is one only.
	Producer *ast.CallExpr
}

// Solve solves the transient paths of body and records the facts at each
// of its calls; converged is false when the solver gave up.
func (m *Result) Solve(body *ast.BlockStmt) (ep *ErrorPaths, converged bool) {
	p := m.solved[body] // solved by the classifier inference, still exact
	if p == nil {
		p = m.newPathAnalysis(body)
	}
	ep = &ErrorPaths{at: make(map[*ast.CallExpr]*callPaths), atReturn: make(map[*ast.ReturnStmt]*callPaths)}
	if !p.converged {
		return ep, false
	}
	byNode := make(map[nodeRef][]*ast.CallExpr)
	for call, ref := range p.calls {
		byNode[ref] = append(byNode[ref], call)
	}
	for _, b := range p.g.Blocks {
		in := p.entry[b.Index]
		if in == nil {
			continue
		}
		st := in.clone()
		for i, n := range b.Nodes {
			if ret, ok := n.(*ast.ReturnStmt); ok {
				ep.atReturn[ret] = &callPaths{facts: p.facts(st)}
			}
			if calls := byNode[nodeRef{int(b.Index), i}]; len(calls) > 0 {
				cp := &callPaths{facts: p.facts(st), vars: make(map[*types.Var]VarFacts)}
				for v, f := range st.errs {
					if v != nil && f.noIntent {
						cp.noIntent = append(cp.noIntent, v)
					}
					if v != nil {
						cp.vars[v] = VarFacts{Nil: bool(f.isNil), NonNil: bool(f.nonNil), Transient: bool(f.transient), NoIntent: bool(f.noIntent), Classified: bool(f.classified || f.excluded)}
					}
				}
				for _, call := range calls {
					ep.at[call] = cp
				}
			}
			p.transfer(st, n)
		}
	}
	return ep, true
}

// At returns what holds on every path that reaches call, just before the
// statement or condition holding it runs. ok is false when call is not
// evaluated by the body itself (deferred, spawned with go, inside a nested
// function literal), is unreachable, or the analysis gave up.
func (ep *ErrorPaths) At(call *ast.CallExpr) (facts PathFacts, ok bool) {
	if ep == nil {
		return PathFacts{}, false
	}
	cp, found := ep.at[call]
	if !found {
		return PathFacts{}, false
	}
	return cp.facts, true
}

// AtReturn returns what holds on every path that reaches a return
// statement of the body, just before it runs.
func (ep *ErrorPaths) AtReturn(ret *ast.ReturnStmt) (facts PathFacts, ok bool) {
	if ep == nil {
		return PathFacts{}, false
	}
	cp, found := ep.atReturn[ret]
	if !found {
		return PathFacts{}, false
	}
	return cp.facts, true
}

// NoRetryIntent reports whether, on every path to call, an exact retry
// classification of v (a delay classifier, errors.As into a carrier, a
// predicate known by its fact) failed since v was last assigned: there v
// provably holds no retry carrier.
func (ep *ErrorPaths) NoRetryIntent(call *ast.CallExpr, v *types.Var) bool {
	if ep == nil || v == nil {
		return false
	}
	cp, found := ep.at[call]
	return found && slices.Contains(cp.noIntent, v)
}

// facts summarizes a state, choosing deterministically among errors.
func (p *pathAnalysis) facts(s *flowState) PathFacts {
	keys := make([]*types.Var, 0, len(s.errs))
	for k := range s.errs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a == nil || b == nil {
			return b == nil && a != nil
		}
		return a.Pos() < b.Pos()
	})
	var out PathFacts
	rank := -1
	for _, k := range keys {
		f := s.errs[k]
		if f.nonNil || f.transient || f.producer {
			out.ErrorPath = true
		}
		if k != nil && bool(f.permanent && f.nonNil) && !bool(f.identified) && out.NoIntent == nil {
			out.NoIntent = &NoIntentPath{Err: k, Origin: f.nOrigin}
		}
		if k != nil && bool(f.nonNil && !f.transient) && !bool(f.classified || f.excluded) && out.Unclassified == nil {
			out.Unclassified = k
		}
		if bool(f.producer) && !bool(f.classified) && out.ErrorBranch == nil {
			out.ErrorBranch = &ErrorBranch{Err: k, Producer: f.pOrigin}
		}
		switch {
		case bool(f.transient):
			r := 1
			if f.delay != nil || f.carrier != nil {
				r = 2
			}
			if r > rank {
				rank = r
				out.Transient = &TransientPath{Err: k, Classified: true, Delay: f.delay, Carrier: f.carrier}
				if f.tOrigin != nil {
					out.Transient.Origin = f.tOrigin
				}
			}
		case bool(f.producer):
			if rank < 0 {
				rank = 0
				out.Transient = &TransientPath{Err: k}
				if f.pOrigin != nil {
					out.Transient.Origin = f.pOrigin
				}
				if k != nil && p.m.prod.IsCarrier(k.Type()) {
					out.Transient.Carrier = k // a non-nil carrier: its delay is at hand
				}
			}
		}
	}
	out.ZeroDelay = len(s.zero) > 0
	return out
}
