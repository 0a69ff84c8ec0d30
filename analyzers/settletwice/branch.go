package settletwice

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/cfg"
)

// assignsAny reports whether a statement of b assigns v.
func assignsAny(b *cfg.Block, v *types.Var, info *types.Info) bool {
	for _, n := range b.Nodes {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			continue
		}
		for _, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && (info.Uses[id] == v || info.Defs[id] == v) {
				return true
			}
		}
	}
	return false
}

// broken reports whether some expression of cond has no valid type (code
// with type errors): nothing is concluded from a branch on it.
func broken(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if _, ident := n.(*ast.Ident); !ok || ident || found {
			return !found // identifiers of packages and selectors have no type entry
		}
		if tv, ok := info.Types[e]; !ok || tv.Type == nil || tv.Type == types.Typ[types.Invalid] {
			found = true
		}
		return !found
	})
	return found
}
