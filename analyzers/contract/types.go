package contract

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// errorType is the universe's error interface.
var errorNamed = types.Universe.Lookup("error").Type()

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// IsError reports whether t is an error: it implements the error interface
// (as a value). A nil or invalid type is not.
func IsError(t types.Type) bool {
	if t == errorNamed {
		return true // the common case, without a method set lookup
	}
	if t == nil || !isValid(t) {
		return false
	}
	if _, ok := t.(*types.Basic); ok {
		return false
	}
	return types.Implements(t, errorType)
}

// isErrorish reports whether t or *t implements error.
func isErrorish(t types.Type) bool {
	if IsError(t) {
		return true
	}
	if _, isPtr := t.(*types.Pointer); !isPtr && isValid(t) {
		if _, isIface := t.Underlying().(*types.Interface); !isIface {
			return IsError(types.NewPointer(t))
		}
	}
	return false
}

func isValid(t types.Type) bool {
	return t != nil && t != types.Typ[types.Invalid]
}

// IsDuration reports whether t is time.Duration.
func IsDuration(t types.Type) bool {
	return isNamed(t, "time", "Duration")
}

func isNamed(t types.Type, pkgPath, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == pkgPath
}

// methodOf finds the method name in the method set of t (value receivers
// only, as when t is converted to an interface). Type parameters contribute
// the methods of their constraint.
func methodOf(t types.Type, pkg *types.Package, name string) *types.Func {
	if !isValid(t) {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, false, pkg, name)
	fn, _ := obj.(*types.Func)
	return fn
}

// pointerMethodOf is methodOf on the method set of *t for non-pointer,
// non-interface t: the set a &T{} literal has.
func pointerMethodOf(t types.Type, pkg *types.Package, name string) *types.Func {
	if fn := methodOf(t, pkg, name); fn != nil {
		return fn
	}
	if !isValid(t) {
		return nil
	}
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
		return nil
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return nil
	}
	return methodOf(types.NewPointer(t), pkg, name)
}

// signatureIs reports whether fn has exactly the given parameter and result
// counts.
func signatureIs(fn *types.Func, params, results int) (*types.Signature, bool) {
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
