package contract

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/retrylint/retrylint/analyzers/profile"
)

// TermCall describes a call that terminates a message.
type TermCall struct {
	Call *ast.CallExpr
	// Msg is the message expression terminated: the receiver of Term, the
	// argument passed to a may-Term helper's message parameter, or the
	// message a function literal captures and Terms.
	Msg ast.Expr
	// Msgs are the message variables Msg derives from.
	Msgs []*types.Var
	// Name is Term, TermWithReason, or the helper as written; empty for a
	// function literal called on the spot.
	Name string
	// Helper is set when the Term happens inside a called function or
	// function literal.
	Helper bool
	// Inner is the Term inside the helper (or the call through which the
	// helper Terms); token.NoPos for a direct Term or when unknown.
	Inner token.Pos
	// Writes is set when the helper also writes a DLQ on some path: it is
	// judged inside, and at the call it is a Term only.
	Writes bool
}

// asTerm recognizes a Term: msg.Term(), msg.TermWithReason(reason), a call
// of a function (any package) that may Term its message parameter with the
// message as argument, or a call of a function literal (directly or
// through a local variable) that Terms a message parameter or a message it
// captures.
func (m *Model) asTerm(call *ast.CallExpr) (TermCall, bool) {
	if m.info == nil || call == nil {
		return TermCall{}, false
	}
	for _, s := range m.settlements(call) {
		if s.settlement == profile.Terminate {
			return m.termCall(call, s.msg, s.name, s.helper, s.inner, s.writes), true
		}
	}
	return TermCall{}, false
}

func (m *Model) termCall(call *ast.CallExpr, msg ast.Expr, name string, helper bool, inner token.Pos, writes bool) TermCall {
	return TermCall{
		Call: call, Msg: msg, Msgs: m.messageDeps(msg), Name: name,
		Helper: helper, Inner: inner, Writes: writes,
	}
}

// paramVars returns the variables of a function type's parameters, in
// order (nil for blank or unnamed ones).
func paramVars(info *types.Info, ft *ast.FuncType) []*types.Var {
	var vs []*types.Var
	if ft == nil || ft.Params == nil {
		return nil
	}
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			vs = append(vs, nil)
			continue
		}
		for _, n := range f.Names {
			v, _ := info.Defs[n].(*types.Var)
			vs = append(vs, v)
		}
	}
	return vs
}

// isMessageVar reports whether e names a variable holding a message.
func (m *Model) isMessageVar(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	return ok && m.IsMessage(v.Type())
}

// holdsMessages reports whether t is a message or a pointer, slice, array,
// map or channel of messages.
func (m *Model) holdsMessages(t types.Type, depth int) bool {
	if !isValid(t) || depth > 2 {
		return false
	}
	if m.IsMessage(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Slice:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Array:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Map:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Chan:
		return m.holdsMessages(u.Elem(), depth+1)
	}
	return false
}

// addVar adds v to the position-sorted set vs.
func addVar(vs []*types.Var, v *types.Var) []*types.Var {
	if slices.Contains(vs, v) {
		return vs
	}
	i := sort.Search(len(vs), func(i int) bool { return vs[i].Pos() > v.Pos() })
	return slices.Insert(vs, i, v)
}
