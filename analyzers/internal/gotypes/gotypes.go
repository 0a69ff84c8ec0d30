// Package gotypes holds the type tests every retrylint analyzer shares:
// errors, durations, named types, method sets and static callees.
package gotypes

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// errorNamed is the universe's error type, errorType its interface.
var errorNamed = types.Universe.Lookup("error").Type()

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// IsError reports whether t is an error: it implements the error interface
// (as a value). A nil or invalid type is not.
func IsError(t types.Type) bool {
	if t == errorNamed {
		return true // the common case, without a method set lookup
	}
	if t == nil || !IsValid(t) {
		return false
	}
	if lacksErrorMethod(t) {
		return false // most types a handler's signature holds: no method set lookup
	}
	return types.Implements(t, errorType)
}

// lacksErrorMethod reports whether t, or *t when t is a pointer,
// certainly has no method named Error: none of its own or its
// interface's, and no embedded field to promote one from. False means
// "maybe".
func lacksErrorMethod(t types.Type) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		for i := range n.NumMethods() {
			if n.Method(i).Name() == "Error" {
				return false
			}
		}
		t = n.Underlying()
	}
	switch u := t.(type) {
	case *types.Basic, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Array:
		return true
	case *types.Struct:
		for i := range u.NumFields() {
			if u.Field(i).Embedded() {
				return false
			}
		}
		return true
	case *types.Interface:
		for i := range u.NumMethods() {
			if u.Method(i).Name() == "Error" {
				return false
			}
		}
		return true
	}
	return false // type parameters, defined pointers: ask
}

// IsErrorish reports whether t or *t implements error.
func IsErrorish(t types.Type) bool {
	if IsError(t) {
		return true
	}
	if _, isPtr := t.(*types.Pointer); !isPtr && IsValid(t) {
		if _, isIface := t.Underlying().(*types.Interface); !isIface {
			return IsError(types.NewPointer(t))
		}
	}
	return false
}

func IsValid(t types.Type) bool {
	return t != nil && t != types.Typ[types.Invalid]
}

// IsDuration reports whether t is time.Duration.
func IsDuration(t types.Type) bool {
	return IsNamed(t, "time", "Duration")
}

func IsNamed(t types.Type, pkgPath, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == pkgPath
}

// MethodOf finds the method name in the method set of t (value receivers
// only, as when t is converted to an interface). Type parameters contribute
// the methods of their constraint.
func MethodOf(t types.Type, pkg *types.Package, name string) *types.Func {
	if !IsValid(t) {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, false, pkg, name)
	fn, _ := obj.(*types.Func)
	return fn
}

// PointerMethodOf is MethodOf on the method set of *t for non-pointer,
// non-interface t: the set a &T{} literal has.
func PointerMethodOf(t types.Type, pkg *types.Package, name string) *types.Func {
	if fn := MethodOf(t, pkg, name); fn != nil {
		return fn
	}
	if !IsValid(t) {
		return nil
	}
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
		return nil
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return nil
	}
	return MethodOf(types.NewPointer(t), pkg, name)
}

// SignatureIs reports whether fn has exactly the given parameter and result
// counts.
func SignatureIs(fn *types.Func, params, results int) (*types.Signature, bool) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return nil, false
	}
	return sig, sig.Params().Len() == params && sig.Results().Len() == results
}

// StaticCallee returns the function or method a call invokes when it is
// known statically (functions, methods, generic instantiations: the origin),
// or nil for calls through func values and interfaces' dynamic dispatch is
// still resolved to the interface method.
func StaticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	if info == nil {
		return nil
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// IsPkgFunc reports whether fn is the package-level function path.name.
func IsPkgFunc(fn *types.Func, path, name string) bool {
	if fn == nil || fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != path {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() == nil
}

// ErrorResults returns the indexes of fn's results of type error.
func ErrorResults(sig *types.Signature) []int {
	var idx []int
	for i := 0; i < sig.Results().Len(); i++ {
		if IsError(sig.Results().At(i).Type()) {
			idx = append(idx, i)
		}
	}
	return idx
}

// HasUnwrap reports whether t (or *t) has Unwrap() error or
// Unwrap() []error, so errors.As can see through it.
func HasUnwrap(t types.Type, pkg *types.Package) bool {
	fn := PointerMethodOf(t, pkg, "Unwrap")
	if fn == nil {
		return false
	}
	sig, ok := SignatureIs(fn, 0, 1)
	if !ok {
		return false
	}
	res := sig.Results().At(0).Type()
	if IsError(res) {
		return true
	}
	if sl, ok := res.Underlying().(*types.Slice); ok {
		return IsError(sl.Elem())
	}
	return false
}

// RecvIsInterface returns a method's receiver and whether it is an
// interface's (a call of it is dynamic dispatch).
func RecvIsInterface(fn *types.Func) (*types.Var, bool) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil, false
	}
	_, isIface := sig.Recv().Type().Underlying().(*types.Interface)
	return sig.Recv(), isIface
}

// IsNilExpr reports whether e is the untyped nil.
func IsNilExpr(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// IsBool reports whether t is a boolean type.
func IsBool(t types.Type) bool {
	if !IsValid(t) {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}
