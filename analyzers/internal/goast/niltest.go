package goast

import (
	"go/ast"
	"go/token"
	"go/types"
)

// NilOutcome is what one side of a condition tells about an error.
type NilOutcome int

const (
	Unknown   NilOutcome = iota
	Failed               // the error is non-nil there
	Succeeded            // it is nil there
)

// NilTest says what the true side (or, if !onTrue, the false side) of cond
// tells about an error expression recognized by is: Failed for err != nil,
// Succeeded for err == nil, through !, parentheses, && and ||. The
// ordering checks read a DLQ write's error with it, settletwice an Ack's.
func NilTest(cond ast.Expr, is func(ast.Expr) bool, onTrue bool) NilOutcome {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return NilTest(e.X, is, !onTrue)
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
				return Unknown
			}
			if id, ok := ast.Unparen(other).(*ast.Ident); !ok || id.Name != "nil" {
				return Unknown
			}
			if (e.Op == token.NEQ) == onTrue {
				return Failed
			}
			return Succeeded
		case token.LAND, token.LOR:
			// The true side of a && b (the false side of a || b) holds
			// both; the other side holds only that one of them failed.
			if (e.Op == token.LAND) != onTrue {
				return Unknown
			}
			if o := NilTest(e.X, is, onTrue); o != Unknown {
				return o
			}
			return NilTest(e.Y, is, onTrue)
		}
	}
	return Unknown
}

// IsVar reports whether e names v.
func IsVar(e ast.Expr, v *types.Var, info *types.Info) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}
