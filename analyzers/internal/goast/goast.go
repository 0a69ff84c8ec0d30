// Package goast holds the syntax walks every retrylint analyzer shares:
// the calls a body evaluates, its return statements, the names of callees
// as written, and the function body enclosing a node.
package goast

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/cfgs"
)

// InspectCalls calls f for each call in n, in source order, descending into
// function literals only where they are called on the spot
// (func() { ... }(), defer func() { ... }(), go func() { ... }()). It stops
// when f returns false.
func InspectCalls(n ast.Node, f func(*ast.CallExpr) bool) {
	stop := false
	var calledLits map[*ast.FuncLit]bool
	ast.Inspect(n, func(n ast.Node) bool {
		if stop {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return calledLits[n]
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				if calledLits == nil {
					calledLits = make(map[*ast.FuncLit]bool)
				}
				calledLits[lit] = true
			}
			if !f(n) {
				stop = true
				return false
			}
		}
		return true
	})
}

// CalleeText renders a callee expression for messages: js.Publish,
// s.dlq.Write, deadLetter; empty for a function literal.
func CalleeText(fun ast.Expr) string {
	switch f := ast.Unparen(fun).(type) {
	case *ast.FuncLit:
		return ""
	case *ast.IndexExpr: // generic instantiation
		return CalleeText(f.X)
	case *ast.IndexListExpr:
		return CalleeText(f.X)
	}
	return types.ExprString(ast.Unparen(fun))
}

// Returns returns the return statements of body, not of nested literals.
func Returns(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, n)
		}
		return true
	})
	return out
}

// EnclosingBody returns the body of the innermost function declaration or
// literal in an inspector stack: the body to pass to ErrorPaths for the
// node on top of it.
func EnclosingBody(stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			return f.Body
		case *ast.FuncDecl:
			return f.Body
		}
	}
	return nil
}

// CalleeName names the function or method a call invokes, for messages:
// "process" for s.process(ctx), "Result" for Result[T](v); "" for calls of
// computed func values.
func CalleeName(call *ast.CallExpr) string {
	switch f := cfgs.CalleeExpr(call).(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// CalledName returns the name a call's function expression ends in (f in
// f(x), pkg.f(x), v.f(x), f[T](x)), with ident set when the expression is
// a bare identifier (a function, or a variable holding a func value), or
// "" when it is something else (a function literal, a call's result).
// The model's per-call inferences test the name against the names that
// can matter before looking the callee up in the type information: on a
// large package those lookups, not the tests, are most of their cost.
func CalledName(fun ast.Expr) (name string, ident bool) {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f.Name, true
	case *ast.SelectorExpr:
		return f.Sel.Name, false
	case *ast.IndexExpr:
		return CalledName(f.X)
	case *ast.IndexListExpr:
		return CalledName(f.X)
	}
	return "", false
}

// OnEveryPath calls visit with the syntax that body evaluates on every path
// that returns normally, in order: its top-level statements (of an if
// statement, its init and condition, not its branches), up to and
// including the first that holds a return. It stops when visit returns
// false.
func OnEveryPath(body *ast.BlockStmt, visit func(ast.Node) bool) {
	for _, stmt := range body.List {
		var evaluated []ast.Node
		switch s := stmt.(type) {
		case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.DeferStmt, *ast.ReturnStmt:
			evaluated = []ast.Node{s}
		case *ast.IfStmt:
			evaluated = []ast.Node{s.Init, s.Cond}
		}
		for _, n := range evaluated {
			if n != nil && !visit(n) {
				return
			}
		}
		if cfgs.HasReturn(stmt) {
			return
		}
	}
}

// ComparePos orders two positions of fset by file name, then by offset.
// Comparing the positions themselves orders files as they were added to
// the file set, which the go/packages loader does in parallel: two runs
// could report the bodies of two files in different orders.
func ComparePos(fset *token.FileSet, a, b token.Pos) int {
	fa, fb := fset.File(a), fset.File(b)
	if fa == nil || fb == nil || fa == fb {
		return cmp.Compare(a, b)
	}
	if c := cmp.Compare(fa.Name(), fb.Name()); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}
