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

// tracer answers "may this error expression hold a retry carrier" inside
// one package. assume, when set, is a parameter whose value counts as
// retryable: it is how wrapping helpers (WrapsFact) are inferred.
type tracer struct {
	m       *Result
	assume  *types.Var
	visited map[*defs.Assignment]bool
	depth   int
}

func (t *tracer) expr(e ast.Expr) bool {
	if e == nil || t.depth > defs.MaxDepth {
		return false
	}
	t.depth++
	defer func() { t.depth-- }()

	e = ast.Unparen(e)
	info := t.m.info
	if tv, ok := info.Types[e]; ok && !tv.IsType() && t.m.IsCarrier(tv.Type) {
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		if t.assume != nil && v == t.assume {
			return true
		}
		return t.variable(v, e.Pos())
	case *ast.CallExpr:
		return t.call(e, -1)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if lit, ok := ast.Unparen(e.X).(*ast.CompositeLit); ok {
				return t.composite(lit, true)
			}
		}
	case *ast.CompositeLit:
		return t.composite(e, false)
	case *ast.SelectorExpr:
		// pkg.ErrThrottled: a package-level variable of another package.
		if v, ok := info.Uses[e.Sel].(*types.Var); ok && !v.IsField() && v.Pkg() != nil && v.Pkg() != t.m.pkg {
			return t.m.imported.Vars[v]
		}
	}
	return false
}

// variable reports whether a definition of v that reaches at may be
// retryable.
func (t *tracer) variable(v *types.Var, at token.Pos) bool {
	for _, a := range t.m.defs().Reaching(v, at) {
		if a.RHS == nil || t.visited[a] {
			continue
		}
		t.visited[a] = true
		ok := false
		if a.Index >= 0 {
			if call, isCall := ast.Unparen(a.RHS).(*ast.CallExpr); isCall {
				ok = t.call(call, a.Index)
			}
		} else {
			ok = t.expr(a.RHS)
		}
		delete(t.visited, a)
		if ok {
			return true
		}
	}
	return false
}

// call reports whether result index (or the single result, index -1) of
// call may be retryable.
func (t *tracer) call(call *ast.CallExpr, index int) bool {
	info := t.m.info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 {
			return t.expr(call.Args[0]) // conversion such as error(x)
		}
		return false
	}
	if index >= 0 && !t.resultIsError(call, index) {
		return false
	}
	fn := gotypes.StaticCallee(info, call)
	switch {
	case gotypes.IsPkgFunc(fn, "fmt", "Errorf"):
		return slices.ContainsFunc(printf.WrappedOperands(info, call), t.expr)
	case gotypes.IsPkgFunc(fn, "errors", "Join"):
		return slices.ContainsFunc(call.Args, t.expr)
	}
	if t.producerCall(call) {
		return true
	}
	if fn != nil {
		for _, p := range t.m.wrappedParams(fn) {
			if p < len(call.Args) && t.expr(call.Args[p]) {
				return true
			}
		}
	}
	return false
}

func (t *tracer) resultIsError(call *ast.CallExpr, index int) bool {
	tup, ok := t.m.info.TypeOf(call).(*types.Tuple)
	return ok && index < tup.Len() && gotypes.IsErrorish(tup.At(index).Type())
}

// producerCall reports whether call's callee is a retryable producer:
// statically, or as a local func value bound to a producer, a method value
// of one, or a function literal that is one.
func (t *tracer) producerCall(call *ast.CallExpr) bool {
	if fn := gotypes.StaticCallee(t.m.info, call); fn != nil {
		if _, isIface := gotypes.RecvIsInterface(fn); isIface {
			return false // dynamic dispatch: origin unknown
		}
		return t.m.IsProducer(fn)
	}
	return t.funcValue(call.Fun)
}

// funcValue reports whether a func-typed expression denotes a producer.
func (t *tracer) funcValue(e ast.Expr) bool {
	if t.depth > defs.MaxDepth {
		return false
	}
	t.depth++
	defer func() { t.depth-- }()
	info := t.m.info
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return t.m.FuncLitProduces(e)
	case *ast.Ident:
		switch obj := info.Uses[e].(type) {
		case *types.Func:
			return t.m.IsProducer(obj)
		case *types.Var:
			for _, a := range t.m.defs().Reaching(obj, e.Pos()) {
				if a.RHS != nil && a.Index < 0 && !t.visited[a] {
					t.visited[a] = true
					ok := t.funcValue(a.RHS)
					delete(t.visited, a)
					if ok {
						return true
					}
				}
			}
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if fn, ok := sel.Obj().(*types.Func); ok && (sel.Kind() == types.MethodVal || sel.Kind() == types.MethodExpr) {
				if _, isIface := gotypes.RecvIsInterface(fn); !isIface {
					return t.m.IsProducer(fn)
				}
			}
			return false
		}
		if fn, ok := info.Uses[e.Sel].(*types.Func); ok { // pkg.Func
			return t.m.IsProducer(fn)
		}
	}
	return false
}

// composite reports whether a composite literal of an error type keeps a
// retryable error: through a field of a type that has Unwrap.
func (t *tracer) composite(lit *ast.CompositeLit, addr bool) bool {
	typ := t.m.info.TypeOf(lit)
	if !gotypes.IsValid(typ) || !gotypes.HasUnwrap(typ, t.m.pkg) {
		return false
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		if t.expr(elt) {
			return true
		}
	}
	return false
}

// returnsRetryable reports whether some return statement of body (not of
// nested function literals) returns a retryable error. results are the
// function's declared results, for bare returns of named results.
func (t *tracer) returnsRetryable(body *ast.BlockStmt, results *types.Tuple) bool {
	for _, n := range t.m.returnsOf(body) {
		if t.returnRetryable(n, results) {
			return true
		}
	}
	return false
}

// returnRetryable reports whether a return statement returns a retryable
// error.
func (t *tracer) returnRetryable(n *ast.ReturnStmt, results *types.Tuple) bool {
	found := false
	if len(n.Results) == 0 && results != nil {
		for i := 0; i < results.Len(); i++ {
			r := results.At(i)
			if gotypes.IsErrorish(r.Type()) && r.Name() != "" && (t.m.IsCarrier(r.Type()) || t.variable(r, n.Pos())) {
				found = true
			}
		}
		return found
	}
	if len(n.Results) == 1 && results != nil && results.Len() > 1 {
		if call, ok := ast.Unparen(n.Results[0]).(*ast.CallExpr); ok {
			for i := 0; i < results.Len(); i++ {
				if gotypes.IsErrorish(results.At(i).Type()) && t.call(call, i) {
					found = true
				}
			}
		}
		return found
	}
	for _, r := range n.Results {
		if tv, ok := t.m.info.Types[r]; ok && gotypes.IsErrorish(tv.Type) && t.expr(r) {
			found = true
		}
	}
	return found
}
