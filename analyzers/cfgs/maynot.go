package cfgs

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// intrinsicNames are the names of the functions Intrinsic reports, and
// panic's: a call that never returns names one of them, or a function of
// some package that NoReturn found.
var intrinsicNames = map[string]bool{
	"panic": true, "Exit": true, "Goexit": true,
	"Fatal": true, "Fatalf": true, "Fatalln": true, "Panic": true, "Panicf": true, "Panicln": true,
	"FailNow": true, "SkipNow": true, "Skip": true, "Skipf": true,
}

// MayNotReturn returns, from the syntax alone, a superset of the
// functions among decls that NoReturn can find: a body with no return
// statement whose last statement is a call naming panic, an intrinsic,
// a function of another package named in known (those with a
// NoReturnFact the package sees), or such a function of decls. It lets a
// driver tell, before type-checking a package's bodies, that no function
// of it can carry a NoReturnFact. A name stands for every function so
// named: the superset holds whatever the call resolves to, since a
// resolved callee is named by the call's last identifier.
func MayNotReturn(decls []*ast.FuncDecl, known func(name string) bool) []*ast.FuncDecl {
	names := make(map[string]bool)
	named := func(name string) bool { return intrinsicNames[name] || names[name] || known(name) }
	in := make(map[*ast.FuncDecl]bool)
	var out []*ast.FuncDecl
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if in[d] || d.Body == nil || len(d.Body.List) == 0 {
				continue
			}
			last, ok := d.Body.List[len(d.Body.List)-1].(*ast.ExprStmt)
			if !ok {
				continue
			}
			call, ok := ast.Unparen(last.X).(*ast.CallExpr)
			if !ok || !named(calleeName(call)) || HasReturn(d.Body) {
				continue
			}
			in[d], names[d.Name.Name], changed = true, true, true
			out = append(out, d)
		}
	}
	return out
}

// CalleeExpr returns a call's function expression without parentheses
// and type arguments: f, pkg.F, x.M.
func CalleeExpr(call *ast.CallExpr) ast.Expr {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	return fun
}

// calleeName returns the last identifier of a call's function, which
// names the function typeutil.Callee resolves it to, or "".
func calleeName(call *ast.CallExpr) string {
	switch f := CalleeExpr(call).(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// NoReturnOfDecls is NoReturn for a package whose function bodies were
// not type-checked: info holds the Defs of its declarations only. It
// resolves each candidate's last call from the syntax and the declared
// types (a function or method of the package, of an import, or of the
// receiver's or a parameter's type) and returns false when it cannot: a
// callee named through a local variable or a call's result, a dot
// import, a name a local declaration shadows, or a deferred call that
// might recover. When it returns true the result is NoReturn's.
//
// known and knownName tell the functions of other packages that never
// return, by object and by name (MayNotReturn).
func NoReturnOfDecls(pkg *types.Package, info *types.Info, files []*ast.File, known func(*types.Func) bool, knownName func(string) bool) (map[*types.Func]bool, bool) {
	var decls []*ast.FuncDecl
	fileOf := make(map[*ast.FuncDecl]*ast.File)
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				decls = append(decls, fd)
				fileOf[fd] = f
			}
		}
	}
	out := make(map[*types.Func]bool)
	never := func(fn *types.Func) bool { return out[fn] || Intrinsic(fn) || known(fn) }
	for changed := true; changed; {
		changed = false
		for _, d := range MayNotReturn(decls, knownName) {
			fn, ok := info.Defs[d.Name].(*types.Func)
			if !ok {
				return nil, false
			}
			if out[fn] {
				continue
			}
			call := ast.Unparen(d.Body.List[len(d.Body.List)-1].(*ast.ExprStmt).X).(*ast.CallExpr)
			r := resolver{pkg: pkg, file: fileOf[d], decl: d, fn: fn}
			callee, panics, ok := r.callee(call)
			if !ok {
				return nil, false
			}
			if !panics && (callee == nil || !never(callee.Origin())) {
				continue
			}
			if !exitsFunc(callee) && defers(d.Body) {
				return nil, false // a deferred call may recover
			}
			out[fn] = true
			changed = true
		}
	}
	return out, true
}

// defers reports whether body holds a defer statement of its own.
func defers(body *ast.BlockStmt) bool {
	return holds(body, func(n ast.Node) bool { _, ok := n.(*ast.DeferStmt); return ok })
}

// resolver resolves calls in one function declaration without its body's
// types.
type resolver struct {
	pkg  *types.Package
	file *ast.File
	decl *ast.FuncDecl
	fn   *types.Func
}

// callee returns the function call calls, or panics when it is the
// builtin panic; ok is false when it cannot tell.
func (r resolver) callee(call *ast.CallExpr) (fn *types.Func, panics, ok bool) {
	switch f := CalleeExpr(call).(type) {
	case *ast.Ident:
		if r.declaresLocally(f.Name) || r.dotImports() {
			return nil, false, false
		}
		switch obj := r.pkg.Scope().Lookup(f.Name).(type) {
		case *types.Func:
			return obj, false, true
		case nil:
			return nil, f.Name == "panic" && types.Universe.Lookup("panic") != nil, true
		}
		return nil, false, true // a variable, a conversion: no function
	case *ast.SelectorExpr:
		x, isIdent := ast.Unparen(f.X).(*ast.Ident)
		if !isIdent {
			return nil, false, false
		}
		if t := r.localType(x.Name); t != nil {
			return r.method(t, f.Sel.Name), false, true
		}
		if r.declaresLocally(x.Name) || r.dotImports() {
			return nil, false, false
		}
		switch obj := r.pkg.Scope().Lookup(x.Name).(type) {
		case *types.Var, *types.Const:
			return r.method(obj.Type(), f.Sel.Name), false, true
		case *types.TypeName:
			return r.method(obj.Type(), f.Sel.Name), false, true // a method expression
		case nil:
			if imp := r.imported(x.Name); imp != nil {
				fn, _ := imp.Scope().Lookup(f.Sel.Name).(*types.Func)
				return fn, false, true
			}
		}
		return nil, false, false
	}
	return nil, false, true // a literal's or a call's result: no function
}

// method returns the method name of t or *t, or nil.
func (r resolver) method(t types.Type, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(t, true, r.pkg, name)
	fn, _ := obj.(*types.Func)
	return fn
}

// localType returns the type of the receiver or parameter so named, when
// the body declares nothing of that name; nil otherwise.
func (r resolver) localType(name string) types.Type {
	sig := r.fn.Signature()
	vars := []*types.Var{sig.Recv()}
	for i := range sig.Params().Len() {
		vars = append(vars, sig.Params().At(i))
	}
	for _, v := range vars {
		if v != nil && v.Name() == name && !declares(r.decl.Body, name) {
			return v.Type()
		}
	}
	return nil
}

// declaresLocally reports whether the declaration's signature or body
// declares name.
func (r resolver) declaresLocally(name string) bool {
	for _, fl := range []*ast.FieldList{r.decl.Recv, r.decl.Type.TypeParams, r.decl.Type.Params, r.decl.Type.Results} {
		if fl == nil {
			continue
		}
		for _, field := range fl.List {
			for _, n := range field.Names {
				if n.Name == name {
					return true
				}
			}
		}
	}
	return declares(r.decl.Body, name)
}

// declares reports whether a declaration in body (at any depth) declares
// name: a short variable declaration, a var, const or type declaration,
// a range or type switch variable, a literal's parameter.
func declares(body *ast.BlockStmt, name string) bool {
	found := false
	idents := func(list ...*ast.Ident) {
		for _, id := range list {
			found = found || id != nil && id.Name == name
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						idents(id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				k, _ := n.Key.(*ast.Ident)
				v, _ := n.Value.(*ast.Ident)
				idents(k, v)
			}
		case *ast.ValueSpec:
			idents(n.Names...)
		case *ast.TypeSpec:
			idents(n.Name)
		case *ast.Field:
			idents(n.Names...)
		case *ast.TypeSwitchStmt:
			if a, ok := n.Assign.(*ast.AssignStmt); ok {
				for _, l := range a.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						idents(id)
					}
				}
			}
		}
		return !found
	})
	return found
}

// dotImports reports whether the file imports a package into its own
// scope.
func (r resolver) dotImports() bool {
	for _, imp := range r.file.Imports {
		if imp.Name != nil && imp.Name.Name == "." {
			return true
		}
	}
	return false
}

// imported returns the package the file imports under name, or nil.
func (r resolver) imported(name string) *types.Package {
	for _, spec := range r.file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil
		}
		for _, p := range r.pkg.Imports() {
			if p.Path() != path {
				continue
			}
			local := p.Name()
			if spec.Name != nil {
				local = spec.Name.Name
			}
			if local == name {
				return p
			}
		}
	}
	return nil
}
