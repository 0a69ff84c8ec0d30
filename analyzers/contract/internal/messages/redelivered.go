package messages

import (
	"go/ast"
	"go/types"
	"slices"
)

// RedeliveredVars reports whether one of the message variables vs may be
// redelivered (see Redelivered); true when vs is empty (the message is
// unknown).
func (m *Table) RedeliveredVars(vs []*types.Var) bool {
	return len(vs) == 0 || slices.ContainsFunc(vs, func(v *types.Var) bool { return !m.unredelivered[v] })
}

// Redelivered reports whether the message msg names may be redelivered
// by the server: false only when msg is a variable whose origin the
// package shows to be one that nothing redelivers (a core NATS
// subscription, an ordered, AckNone or read-once ephemeral consumer).
// Where the origin is not visible, the message is taken to be redelivered.
func (m *Table) Redelivered(msg ast.Expr) bool {
	for {
		switch e := ast.Unparen(msg).(type) {
		case *ast.StarExpr:
			msg = e.X
			continue
		case *ast.UnaryExpr:
			msg = e.X
			continue
		case *ast.Ident:
			v, _ := m.info.Uses[e].(*types.Var)
			return v == nil || !m.unredelivered[v]
		}
		return true
	}
}
