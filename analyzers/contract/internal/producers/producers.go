// Package producers is the contract model's retryable producers: which
// functions of a package (and, through facts, of its dependencies) may
// return a retry carrier as an error, which return an error parameter
// wrapped, which package-level error values hold a carrier, and whether an
// error expression may hold one. It reads the syntax and defs stages, the
// facts of the dependencies and the type information.
package producers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/internal/printf"
)

// Imported is what the facts of the dependencies say about producers.
type Imported struct {
	Producers map[*types.Func]bool  // ProducerFact
	Vars      map[*types.Var]bool   // RetryableVarFact
	Wraps     map[*types.Func][]int // WrapsFact
}

// Result is the package's producers. It is complete when Build returns
// and read-only afterwards.
type Result struct {
	info          *types.Info
	pkg           *types.Package
	carrierMethod string
	mayRetry      bool
	imported      Imported
	defs          func() *defs.Index
	returnsOf     func(body *ast.BlockStmt) []*ast.ReturnStmt
	producers     map[*types.Func]bool
	wraps         map[*types.Func][]int
	litMemo       map[*ast.FuncLit]bool
	frozen        bool // set when Build returns: litMemo holds every literal of the package
}

// Build infers the package's producers and wrapping helpers (when
// mayRetry: no error can hold a carrier otherwise), then what each
// function literal of lits produces.
func Build(info *types.Info, pkg *types.Package, carrierMethod string, mayRetry bool, imported Imported,
	defsOf func() *defs.Index, returnsOf func(*ast.BlockStmt) []*ast.ReturnStmt,
	decls []*ast.FuncDecl, lits []*ast.FuncLit) *Result {
	m := &Result{info: info, pkg: pkg, carrierMethod: carrierMethod, mayRetry: mayRetry, imported: imported,
		defs: defsOf, returnsOf: returnsOf,
		producers: make(map[*types.Func]bool), wraps: make(map[*types.Func][]int), litMemo: make(map[*ast.FuncLit]bool)}
	m.inferProducers(decls)
	if mayRetry {
		for _, lit := range lits {
			m.FuncLitProduces(lit)
		}
	}
	m.frozen = true
	return m
}

// MayBeRetryable reports whether the error expression e may hold a retry
// carrier: its static type is a carrier, or it flows from a retryable
// producer through assignments, %w, errors.Join, Unwrap-able wrappers and
// wrapping helpers. Errors from interface methods, func values of unknown
// origin and parameters are unknown, and unknown is not retryable.
func (m *Result) MayBeRetryable(e ast.Expr) bool {
	if m.info == nil || e == nil || !m.mayRetry {
		return false
	}
	t := &tracer{m: m, visited: make(map[*defs.Assignment]bool)}
	return t.expr(e)
}

// IsProducerCall reports whether call invokes a retryable producer (a
// function, method, method value or closure known to return retry
// carriers).
func (m *Result) IsProducerCall(call *ast.CallExpr) bool {
	if !m.mayRetry {
		return false
	}
	t := &tracer{m: m, visited: make(map[*defs.Assignment]bool)}
	return t.producerCall(call)
}

// IsProducer reports whether fn (any package) is a retryable producer.
func (m *Result) IsProducer(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.producers[fn]
	}
	return m.imported.Producers[fn]
}

// wrappedParams returns the error parameters fn returns wrapped.
func (m *Result) wrappedParams(fn *types.Func) []int {
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.wraps[fn]
	}
	return m.imported.Wraps[fn]
}

// FuncLitProduces reports whether a function literal returns a retryable
// error on some path.
func (m *Result) FuncLitProduces(lit *ast.FuncLit) bool {
	if v, ok := m.litMemo[lit]; ok || m.frozen {
		return v // frozen: Build filled the memo for every literal
	}
	m.litMemo[lit] = false // cycle guard
	sig, _ := m.info.TypeOf(lit).(*types.Signature)
	var results *types.Tuple
	if sig != nil {
		results = sig.Results()
	}
	t := &tracer{m: m, visited: make(map[*defs.Assignment]bool)}
	v := t.returnsRetryable(lit.Body, results)
	m.litMemo[lit] = v
	return v
}

// mayHoldError reports whether some result can hold an error: an
// interface, or a type that implements error.
func mayHoldError(results *types.Tuple) bool {
	for i := range results.Len() {
		if t := results.At(i).Type(); types.IsInterface(t) || gotypes.IsErrorish(t) {
			return true
		}
	}
	return false
}

// RetryableVars returns the package-level error variables whose
// package-level initialization may hold a retry carrier.
func (m *Result) RetryableVars() []*types.Var {
	var out []*types.Var
	if !m.mayRetry {
		return nil
	}
	scope := m.pkg.Scope()
	for _, name := range scope.Names() {
		v, ok := scope.Lookup(name).(*types.Var)
		if !ok || !gotypes.IsErrorish(v.Type()) {
			continue
		}
		t := &tracer{m: m, visited: make(map[*defs.Assignment]bool)}
		if m.IsCarrier(v.Type()) || t.variable(v, token.Pos(1<<62)) {
			out = append(out, v)
		}
	}
	return out
}

// Producers returns the package's producers.
func (m *Result) Producers() map[*types.Func]bool { return m.producers }

// Wraps returns the error parameters each function of the package returns
// wrapped.
func (m *Result) Wraps() map[*types.Func][]int { return m.wraps }

// inferProducers computes, to a fixpoint, which functions of the package
// are retryable producers and which wrap an error parameter.
func (m *Result) inferProducers(decls []*ast.FuncDecl) {
	// Only a function with a result that can hold an error can return a
	// retryable one.
	decls = slices.DeleteFunc(slices.Clone(decls), func(d *ast.FuncDecl) bool {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		return fn == nil || d.Body == nil || !mayHoldError(fn.Type().(*types.Signature).Results())
	})
	for changed := true; changed; {
		changed = false
		clear(m.litMemo)
		for _, d := range decls {
			fn := m.info.Defs[d.Name].(*types.Func)
			sig := fn.Type().(*types.Signature)
			if m.mayRetry && !m.producers[fn] {
				t := &tracer{m: m, visited: make(map[*defs.Assignment]bool)}
				if t.returnsRetryable(d.Body, sig.Results()) {
					m.producers[fn] = true
					changed = true
				}
			}
			for i := 0; i < sig.Params().Len(); i++ {
				p := sig.Params().At(i)
				if !gotypes.IsError(p.Type()) || m.IsCarrier(p.Type()) || slices.Contains(m.wraps[fn], i) {
					continue
				}
				t := &tracer{m: m, assume: p, visited: make(map[*defs.Assignment]bool)}
				if t.returnsRetryable(d.Body, sig.Results()) {
					m.wraps[fn] = append(m.wraps[fn], i)
					changed = true
				}
			}
		}
	}
	clear(m.litMemo)
}

// ProducerCallOf returns the retryable producer call the value of e comes
// from, when there is one and only one.
func (m *Result) ProducerCallOf(e ast.Expr, depth int) *ast.CallExpr {
	if depth > defs.MaxDepth {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if m.IsProducerCall(e) {
			return e
		}
		fn := gotypes.StaticCallee(m.info, e)
		var inner []ast.Expr
		switch {
		case gotypes.IsPkgFunc(fn, "fmt", "Errorf"):
			inner = printf.WrappedOperands(m.info, e)
		case gotypes.IsPkgFunc(fn, "errors", "Join"):
			inner = e.Args
		}
		var found *ast.CallExpr
		for _, x := range inner {
			if c := m.ProducerCallOf(x, depth+1); c != nil {
				if found != nil {
					return nil
				}
				found = c
			}
		}
		return found
	case *ast.Ident:
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return nil
		}
		var found *ast.CallExpr
		for _, a := range m.defs().Reaching(v, e.Pos()) {
			call, ok := ast.Unparen(a.RHS).(*ast.CallExpr)
			if !ok {
				continue
			}
			var c *ast.CallExpr
			if a.Index >= 0 {
				if m.IsProducerCall(call) {
					c = call
				}
			} else {
				c = m.ProducerCallOf(call, depth+1)
			}
			if c != nil {
				if found != nil && found != c {
					return nil
				}
				found = c
			}
		}
		return found
	}
	return nil
}
