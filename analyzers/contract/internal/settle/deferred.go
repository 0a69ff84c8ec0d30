package settle

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Deferred settlement (CONTRACT.md version 2): `defer msg.Ack()` Acks at
// every return of the function reached after the defer ran. What is
// followed: a deferred Ack that is a statement of the function body itself
// (so it has run at every later return). A return after the block holding
// it settled the same message explicitly (NakWithDelay, then return) gets
// nothing from the deferred Ack: the message is already settled.

// deferredCall returns the call a defer statement makes at every return:
// its own call, or the one call of a literal called with no arguments
// that does nothing else, as errcheck-clean code writes it:
//
//	defer func() { _ = msg.Ack() }()
//	defer func() { msg.Ack() }()
//	defer func() {
//		if err := msg.Ack(); err != nil {
//			log.Print(err)
//		}
//	}()
//
// A literal that calls conditionally, or does more, is not followed: which
// returns it settles at is not known.
func (m *Result) deferredCall(ds *ast.DeferStmt) *ast.CallExpr {
	lit, ok := ast.Unparen(ds.Call.Fun).(*ast.FuncLit)
	if !ok || len(ds.Call.Args) > 0 || len(lit.Body.List) != 1 {
		return ds.Call
	}
	switch st := lit.Body.List[0].(type) {
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(st.X).(*ast.CallExpr); ok {
			return call
		}
	case *ast.AssignStmt:
		if call := blankAssignedCall(st); call != nil {
			return call
		}
	case *ast.IfStmt:
		// if err := msg.Ack(); err != nil { log }: the call runs first,
		// whatever the branch does with its error, unless it settles.
		if init, ok := st.Init.(*ast.AssignStmt); ok && st.Else == nil && len(init.Rhs) == 1 && !m.callsAck(st.Body) {
			if call, ok := ast.Unparen(init.Rhs[0]).(*ast.CallExpr); ok {
				return call
			}
		}
	}
	return ds.Call
}

// deferredAck recognizes the Ack a deferred call makes: an Ack method, or
// a helper (any package) that Acks the message it is given whenever it
// runs (defer ackQuietly(msg)), named by the helper.
func (m *Result) deferredAck(call *ast.CallExpr) (messages.AckCall, bool) {
	if ack, ok := m.msgs.AsAckCall(call); ok {
		return ack, ack.IsAck()
	}
	e, ok := m.CertainEffect(call, profile.Done)
	if !ok {
		return messages.AckCall{}, false
	}
	msg := call.Args[e.Param]
	return messages.AckCall{Call: call, Recv: msg, Method: goast.CalleeText(call.Fun), Settlement: profile.Done,
		Profile: m.msgs.Profile(m.info.TypeOf(msg))}, true
}

// blankAssignedCall returns call of `_ = call`.
func blankAssignedCall(as *ast.AssignStmt) *ast.CallExpr {
	if len(as.Rhs) != 1 || slices.ContainsFunc(as.Lhs, func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return !ok || id.Name != "_"
	}) {
		return nil
	}
	call, _ := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	return call
}

// callsAck reports whether n holds a call of a method named like an ack
// method of any profile: such a branch may settle again.
func (m *Result) callsAck(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && m.msgs.Names().Ack[sel.Sel.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// DeferredAck is a `defer msg.Ack()` statement of a function body itself,
// a deferred literal that only Acks (deferredCall), or a deferred call of
// a helper that always Acks its message (deferredAck).
type DeferredAck struct {
	Stmt *ast.DeferStmt
	Ack  messages.AckCall
}

// DeferredAckAt returns the deferred Ack that runs at ret, a return
// statement of body (not of a nested literal), and settles the message
// there.
func (m *Result) DeferredAckAt(body *ast.BlockStmt, ret *ast.ReturnStmt) (DeferredAck, bool) {
	var d DeferredAck
	found := false
	for _, st := range body.List {
		if st.Pos() >= ret.Pos() {
			break
		}
		if ds, ok := st.(*ast.DeferStmt); ok {
			if ack, ok := m.deferredAck(m.deferredCall(ds)); ok {
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
func (m *Result) settlesMessage(n ast.Node, msg ast.Expr) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if a, ok := m.msgs.AsAckCall(call); ok && !a.IsAck() && a.Settlement != profile.Progress &&
				types.ExprString(a.Recv) == types.ExprString(msg) {
				found = true
			}
		}
		return !found
	})
	return found
}
