package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/internal/printf"

	"github.com/retrylint/retrylint/analyzers/internal/goast"
)

// ErrorCalls returns the calls whose error result the error variable v
// may hold at pos, in source order: each definition of v that reaches pos
// assigns it a call's error result, or nil, or wraps (%w, errors.Join)
// another such variable. It returns nil when some definition gives v a
// value of another origin (a parameter, a channel receive, a field, a
// freshly made error), when v is the error of an ack method (a failed
// settlement is not a dependency's failure), or the error of a context's
// Err or context.Cause (a shutdown, not a failure): the origin is unknown
// or not a failing call, and a check that names the call stays quiet.
func (m *Result) ErrorCalls(v *types.Var, pos token.Pos) []*ast.CallExpr {
	if m.info == nil || v == nil {
		return nil
	}
	var out []*ast.CallExpr
	if !m.errorCalls(v, pos, &out, 0) || len(out) == 0 {
		return nil
	}
	slices.SortFunc(out, func(a, b *ast.CallExpr) int { return goast.ComparePos(m.fset, a.Pos(), b.Pos()) })
	return slices.Compact(out)
}

// errorCalls adds the calls v's reaching definitions take its error from
// to out; false when one of them is of another origin.
func (m *Result) errorCalls(v *types.Var, pos token.Pos, out *[]*ast.CallExpr, depth int) bool {
	reaching := m.defs().Reaching(v, pos)
	if len(reaching) == 0 || depth > defs.MaxDepth {
		return false // a parameter, a captured or package-level variable
	}
	for _, a := range reaching {
		if a.RHS == nil {
			if a.Index >= 0 {
				return false // v, ok := <-ch and the like
			}
			continue // var err error: nil
		}
		if !m.errorCallsOf(a.RHS, a.Index, out, depth) {
			return false
		}
	}
	return true
}

// errorCallsOf is errorCalls for one definition's value; index is the
// result index of a tuple-valued call, or -1.
func (m *Result) errorCallsOf(rhs ast.Expr, index int, out *[]*ast.CallExpr, depth int) bool {
	if gotypes.IsNilExpr(m.info, rhs) {
		return true
	}
	switch e := ast.Unparen(rhs).(type) {
	case *ast.Ident:
		v, ok := m.info.Uses[e].(*types.Var)
		return ok && m.errorCalls(v, e.Pos(), out, depth+1)
	case *ast.CallExpr:
		fn := gotypes.StaticCallee(m.info, e)
		var wrapped []ast.Expr
		switch {
		case gotypes.IsPkgFunc(fn, "fmt", "Errorf"):
			wrapped = printf.WrappedOperands(m.info, e)
		case gotypes.IsPkgFunc(fn, "errors", "Join"):
			wrapped = e.Args
		default:
			if !m.isFailingCall(e, fn, index) {
				return false
			}
			*out = append(*out, e)
			return true
		}
		for _, w := range wrapped {
			if !m.errorCallsOf(w, -1, out, depth+1) {
				return false
			}
		}
		return len(wrapped) > 0 // a fresh error of the code's own making
	}
	return false
}

// isFailingCall reports whether the result index of call (-1: its only
// result) is its last result, an error, and the call is one whose error
// tells that some work failed: not errors.New, not a settlement, not a
// context's cancellation.
func (m *Result) isFailingCall(call *ast.CallExpr, fn *types.Func, index int) bool {
	t := m.info.TypeOf(call.Fun)
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	last := sig.Results().Len() - 1
	if index >= 0 && index != last || index < 0 && last != 0 || !gotypes.IsErrorish(sig.Results().At(last).Type()) {
		return false
	}
	if _, ack := m.msgs.AsAckCall(call); ack {
		return false
	}
	if gotypes.IsPkgFunc(fn, "errors", "New") || gotypes.IsPkgFunc(fn, "context", "Cause") {
		return false
	}
	if fn != nil && fn.Name() == "Err" && fn.Pkg() != nil && fn.Pkg().Path() == "context" {
		return false // ctx.Err(): the consumer is shutting down
	}
	return true
}
