package retryflatten

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// A deferred re-annotation (CONTRACT.md version 3, through "Handlers,
// wider"): a deferred literal that rewrites a named error result,
//
//	func (s *Service) reserve(ctx context.Context) (err error) {
//		defer func() {
//			if err != nil {
//				err = fmt.Errorf("reserve: %v", err)
//			}
//		}()
//		return s.inv.Reserve(ctx)
//	}
//
// runs after every return and flattens whatever the function returns.
// Inside the literal the result looks like a variable nothing assigned;
// what it holds is what the returns of the enclosing function put there.
// It may be retryable when a return of that function returns an error that
// may be retryable, or an assignment in its body (before a naked return)
// stores one in the result. The report names that return as a related
// location.

// deferredResult returns, for a flattening whose operand is a named error
// result of the function that defers the literal holding it, the place
// where that function puts a retryable error into the result, if any.
func (c *checker) deferredResult(fl flattening, stack []ast.Node) (ast.Node, bool) {
	id, ok := ast.Unparen(fl.operand).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !gotypes.IsError(v.Type()) {
		return nil, false
	}
	outer := deferringFunc(stack)
	if outer == nil {
		return nil, false
	}
	typ, body := funcParts(outer)
	if body == nil || typ.Results == nil || !resultOf(c.pass.TypesInfo, typ, v) {
		return nil, false
	}
	for _, ret := range goast.Returns(body) {
		if len(ret.Results) > 0 && c.m.Producers().MayBeRetryable(ret.Results[len(ret.Results)-1]) {
			return ret, true
		}
	}
	var at ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if at != nil || !ok || len(as.Lhs) != len(as.Rhs) {
			return at == nil
		}
		for i, l := range as.Lhs {
			if lid, ok := ast.Unparen(l).(*ast.Ident); ok && c.pass.TypesInfo.Uses[lid] == v && c.m.Producers().MayBeRetryable(as.Rhs[i]) {
				at = as
			}
		}
		return at == nil
	})
	return at, at != nil
}

// deferringFunc returns the function (declaration or literal) that defers
// the innermost function literal on stack (defer func() { ... }()), or
// nil when that literal is not deferred.
func deferringFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 2; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok || ast.Unparen(call.Fun) != ast.Expr(lit) {
			return nil
		}
		if _, ok := stack[i-2].(*ast.DeferStmt); !ok {
			return nil
		}
		for j := i - 3; j >= 0; j-- {
			switch stack[j].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				return stack[j]
			}
		}
		return nil
	}
	return nil
}

func funcParts(n ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Type, f.Body
	case *ast.FuncLit:
		return f.Type, f.Body
	}
	return nil, nil
}

// resultOf reports whether v is a named result of typ.
func resultOf(info *types.Info, typ *ast.FuncType, v *types.Var) bool {
	for _, f := range typ.Results.List {
		for _, n := range f.Names {
			if info.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// withDeferredReturn adds, to a flattening in a deferred re-annotation,
// the place that makes its operand retryable (at, nil for any other
// flattening).
func withDeferredReturn(fl flattening, at ast.Node) flattening {
	if at == nil {
		return fl
	}
	fl.related = append(fl.related, analysis.RelatedInformation{Pos: at.Pos(), End: at.End(),
		Message: "the deferred function runs after this, which may put a retryable error in the result"})
	return fl
}
