package silence

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// The shapes of the functions that export facts whatever the gate says:
// each a necessary condition, read from the syntax and the declarations'
// types.

// errorParams returns the parameters of sig that are errors.
func errorParams(sig *types.Signature) []*types.Var {
	var out []*types.Var
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); gotypes.IsError(p.Type()) {
			out = append(out, p)
		}
	}
	return out
}

// resultMayHoldError reports whether a result of sig can hold an error
// (producers' mayHoldError: what a wrapper returns its parameter in).
func resultMayHoldError(sig *types.Signature) bool {
	for i := range sig.Results().Len() {
		if t := sig.Results().At(i).Type(); types.IsInterface(t) || gotypes.IsErrorish(t) {
			return true
		}
	}
	return false
}

// takesErrorFunc reports whether d's function has a parameter that is a
// function returning an error (handlers' hasErrorFuncParam).
func takesErrorFunc(info *types.Info, d *ast.FuncDecl) bool {
	fn, ok := info.Defs[d.Name].(*types.Func)
	if !ok {
		return false
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if handlers.ReturnsError(params.At(i).Type()) {
			return true
		}
	}
	return false
}

// flattenCalls are the calls the retryflatten check sees flatten their
// operands (fmt.Errorf, errors.New, fmt.Sprint*), by name.
var flattenCalls = map[string]bool{"Errorf": true, "New": true, "Sprint": true, "Sprintf": true, "Sprintln": true}

// mayFlatten returns, to a fixpoint, the declarations whose error
// parameter may be flattened (retryflatten's FlattensFact): named in an
// argument of a call of flattenCalls, of a dependency's function with
// that fact (in.FlattensName) or of such a declaration, or in a
// composite literal whose type may be an error struct.
func mayFlatten(in Inputs, decls []*ast.FuncDecl) map[*ast.FuncDecl]bool {
	out := make(map[*ast.FuncDecl]bool)
	names := make(map[string]bool)
	flattening := func(name string) bool {
		return flattenCalls[name] || names[name] || in.FlattensName != nil && in.FlattensName(name)
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			fn, ok := in.Info.Defs[d.Name].(*types.Func)
			if !ok || d.Body == nil || out[d] {
				continue
			}
			params := errorParams(fn.Signature())
			if slices.ContainsFunc(params, func(p *types.Var) bool { return flattensIn(in, d.Body, p.Name(), flattening) }) {
				out[d], names[d.Name.Name], changed = true, true, true
			}
		}
	}
	return out
}

// flattensIn reports whether body names name in an argument of a
// flattening call or in a composite literal that may be an error.
func flattensIn(in Inputs, body *ast.BlockStmt, name string, flattening func(string) bool) bool {
	if name == "" || name == "_" {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if flattening(goast.CalleeName(n)) && slices.ContainsFunc(n.Args, func(a ast.Expr) bool { return mentions(a, name) }) {
				found = true
			}
		case *ast.CompositeLit:
			if mayBeErrorStruct(in, n.Type) && mentions(n, name) {
				found = true
			}
		}
		return !found
	})
	return found
}

// mayBeErrorStruct reports whether a composite literal's type expression
// may denote a struct type that is an error: a type of the package that
// is one, or any other type expression than a slice, map or array.
func mayBeErrorStruct(in Inputs, t ast.Expr) bool {
	switch t := ast.Unparen(t).(type) {
	case *ast.ArrayType, *ast.MapType:
		return false
	case *ast.Ident:
		if tn, ok := in.Pkg.Scope().Lookup(t.Name).(*types.TypeName); ok {
			typ := tn.Type()
			if _, isStruct := typ.Underlying().(*types.Struct); !isStruct {
				return false
			}
			return gotypes.IsError(typ) || gotypes.IsError(types.NewPointer(typ))
		}
	}
	return true
}

// mentions reports whether n names an identifier called name.
func mentions(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// mayBeMiddleware reports whether a function can be middleware or a
// factory of it (handlers' inferMiddleware): it returns a function, its
// body returns a function literal alone, and a parameter is a function
// returning an error, or such a literal takes one parameter that may be.
func mayBeMiddleware(sig *types.Signature, body *ast.BlockStmt) bool {
	returnsFunc := false
	for i := range sig.Results().Len() {
		if _, ok := sig.Results().At(i).Type().Underlying().(*types.Signature); ok {
			returnsFunc = true
		}
	}
	if !returnsFunc {
		return false
	}
	var lits []*ast.FuncLit
	ast.Inspect(body, func(n ast.Node) bool {
		if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			e := ast.Unparen(ret.Results[0])
			if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 {
				e = ast.Unparen(conv.Args[0]) // perhaps a conversion
			}
			if lit, ok := e.(*ast.FuncLit); ok {
				lits = append(lits, lit)
			}
		}
		return true
	})
	if len(lits) == 0 {
		return false
	}
	for i := range sig.Params().Len() {
		if handlers.ReturnsError(sig.Params().At(i).Type()) {
			return true
		}
	}
	for _, lit := range lits {
		if ps := lit.Type.Params; ps != nil && ps.NumFields() == 1 && mayReturnError(ps.List[0].Type) {
			return true
		}
	}
	return false
}

// mayReturnError reports whether a type expression, read without its
// types, can denote a function returning an error: a func type whose last
// result is not a predeclared basic type, or a name (a defined func type,
// perhaps).
func mayReturnError(t ast.Expr) bool {
	switch t := ast.Unparen(t).(type) {
	case *ast.FuncType:
		if t.Results == nil || len(t.Results.List) == 0 {
			return false
		}
		last, ok := ast.Unparen(t.Results.List[len(t.Results.List)-1].Type).(*ast.Ident)
		if !ok {
			return true
		}
		switch last.Name {
		case "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
			"uintptr", "byte", "rune", "float32", "float64", "complex64", "complex128", "any":
			return false // predeclared, unless the package redeclares it
		}
		return true
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false // a pointer, slice, map, channel, array, struct or interface literal
}

// errFuncFields returns the names of the fields, own or promoted, of the
// package's struct types whose func type returns an error.
func errFuncFields(pkg *types.Package) map[string]bool {
	out := make(map[string]bool)
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
			collectErrFuncFields(tn.Type(), make(map[types.Type]bool), out)
		}
	}
	return out
}

func collectErrFuncFields(t types.Type, seen map[types.Type]bool, out map[string]bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || seen[t] {
		return
	}
	seen[t] = true
	for i := range st.NumFields() {
		f := st.Field(i)
		if handlers.ReturnsError(f.Type()) {
			out[f.Name()] = true
		}
		if f.Embedded() {
			collectErrFuncFields(f.Type(), seen, out)
		}
	}
}

// returnsFieldCall reports whether body returns, as its last result, the
// call of a selector named like one of fields (handlers' returnedField).
func returnsFieldCall(body *ast.BlockStmt, fields map[string]bool) bool {
	if len(fields) == 0 {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) > 0 {
			if call, ok := ast.Unparen(ret.Results[len(ret.Results)-1]).(*ast.CallExpr); ok {
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fields[sel.Sel.Name] {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
