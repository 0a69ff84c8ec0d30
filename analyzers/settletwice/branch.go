package settletwice

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/cfg"
)

// outcome is what one side of a condition tells about the Ack's error.
type outcome int

const (
	unknown   outcome = iota
	failed            // the Ack's error is non-nil there
	succeeded         // it is nil there
)

// nilTest says what the true side (or, if !onTrue, the false side) of cond
// tells about an error expression recognized by is: failed for err != nil,
// succeeded for err == nil, through !, parentheses, && and ||. (The same
// reading as the ordering checks' own, a few lines not worth a shared
// package.)
func nilTest(cond ast.Expr, is func(ast.Expr) bool, onTrue bool) outcome {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return nilTest(e.X, is, !onTrue)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.NEQ, token.EQL:
			var other ast.Expr
			switch {
			case is(e.X):
				other = e.Y
			case is(e.Y):
				other = e.X
			default:
				return unknown
			}
			if id, ok := ast.Unparen(other).(*ast.Ident); !ok || id.Name != "nil" {
				return unknown
			}
			if (e.Op == token.NEQ) == onTrue {
				return failed
			}
			return succeeded
		case token.LAND, token.LOR:
			// The true side of a && b (the false side of a || b) holds
			// both; the other side holds only that one of them failed.
			if (e.Op == token.LAND) != onTrue {
				return unknown
			}
			if o := nilTest(e.X, is, onTrue); o != unknown {
				return o
			}
			return nilTest(e.Y, is, onTrue)
		}
	}
	return unknown
}

// isVar reports whether e names v.
func isVar(e ast.Expr, v *types.Var, info *types.Info) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

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
