package contract

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/profile"
)

// Deferred settlement (CONTRACT.md version 2): `defer msg.Ack()` Acks at
// every return of the function reached after the defer ran. What is
// followed: a deferred Ack that is a statement of the function body itself
// (so it has run at every later return). A return after the block holding
// it settled the same message explicitly (NakWithDelay, then return) gets
// nothing from the deferred Ack: the message is already settled.

// DeferredAck is a `defer msg.Ack()` statement of a function body itself.
type DeferredAck struct {
	Stmt *ast.DeferStmt
	Ack  AckCall
}

// DeferredAckAt returns the deferred Ack that runs at ret, a return
// statement of body (not of a nested literal), and settles the message
// there.
func (m *Model) DeferredAckAt(body *ast.BlockStmt, ret *ast.ReturnStmt) (DeferredAck, bool) {
	var d DeferredAck
	found := false
	for _, st := range body.List {
		if st.Pos() >= ret.Pos() {
			break
		}
		if ds, ok := st.(*ast.DeferStmt); ok {
			if ack, ok := m.AsAckCall(ds.Call); ok && ack.IsAck() {
				d, found = DeferredAck{ds, ack}, true
			}
		}
	}
	if !found {
		return DeferredAck{}, false
	}
	block := enclosingList(body, ret)
	for _, st := range block {
		if st.Pos() >= ret.Pos() {
			break
		}
		if m.settlesMessage(st, d.Ack.Recv) {
			return DeferredAck{}, false
		}
	}
	for _, r := range ret.Results {
		if m.settlesMessage(r, d.Ack.Recv) {
			return DeferredAck{}, false // return msg.NakWithDelay(d)
		}
	}
	return d, true
}

// enclosingList returns the statement list that holds ret.
func enclosingList(body *ast.BlockStmt, ret *ast.ReturnStmt) []ast.Stmt {
	var out []ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if out != nil {
			return false
		}
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for _, st := range list {
			if st == ret {
				out = list
			}
		}
		return true
	})
	return out
}

// settlesMessage reports whether n settles msg other than by an Ack (a
// Nak, NakWithDelay or Term of the same message expression).
func (m *Model) settlesMessage(n ast.Node, msg ast.Expr) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if a, ok := m.AsAckCall(call); ok && !a.IsAck() && a.Settlement != profile.Progress &&
				types.ExprString(a.Recv) == types.ExprString(msg) {
				found = true
			}
		}
		return !found
	})
	return found
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
