package syntax

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// CarrierTypes returns the names of the package-level types of the files
// that declare the carrier method, sorted (what carrierTypesFact holds).
func CarrierTypes(info *types.Info, files []*ast.File, method string) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				if tn, ok := info.Defs[spec.(*ast.TypeSpec).Name].(*types.TypeName); ok && declaresMethod(tn.Type(), method) {
					out = append(out, tn.Name())
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// declaresMethod reports whether a named type declares a method of that
// name (its own methods, or an interface's).
func declaresMethod(t types.Type, method string) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	for i := range n.NumMethods() {
		if n.Method(i).Name() == method {
			return true
		}
	}
	if iface, ok := n.Underlying().(*types.Interface); ok {
		for i := range iface.NumMethods() {
			if iface.Method(i).Name() == method {
				return true
			}
		}
	}
	return false
}
