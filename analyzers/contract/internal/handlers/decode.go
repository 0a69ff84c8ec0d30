package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Decoding the payload (CONTRACT.md versions 2 and 3): a call that
// returns an error and takes a message's payload, or a value derived from
// it, and that is a decoder (decoders.go: the table by import path and
// name, decode-funcs, the name pattern for other packages, a profile's
// decode methods). Its error branch is the decode-failure path.

// AsDecode recognizes a decode of a message's payload: a decoder of the
// table (decoders.go) or of decode-funcs, a function or method of another
// package whose name matches the decode pattern, or a decode method of
// the message's own profile; it takes the payload, or a value derived
// from it, and returns an error.
func (m *Result) AsDecode(call *ast.CallExpr) (Decode, bool) {
	if m.info == nil || !m.maySettle && len(m.handlers) == 0 && !m.mayHandle {
		return Decode{}, false
	}
	_, errIndex := m.dlq.CallResults(call)
	if errIndex < 0 {
		return Decode{}, false
	}
	fn := gotypes.StaticCallee(m.info, call)
	byTable := m.isDecoder(fn)
	name := goast.CalleeName(call)
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	var msgs []*types.Var
	switch {
	case isSel && m.isProfileDecode(sel):
		msgs = messages.AddVars(msgs, m.msgs.Deps(sel.X)) // msg.Decode(&v): the message's own
	case byTable && gotypes.IsPkgFunc(fn, cloudEventsBinding, "ToEvent"):
		msgs = messages.AddVars(msgs, m.msgs.CallDeps(call)) // binding.ToEvent(ctx, natsce.NewMessage(msg))
	case !byTable && (name == "" || !m.decode.MatchString(name)):
		return Decode{}, false
	}
	for _, a := range call.Args {
		msgs = m.payloadMsgs(a, msgs, 0)
	}
	if isSel && m.info.Selections[sel] != nil {
		msgs = m.payloadMsgs(sel.X, msgs, 0) // dec.Decode(&v), dec built over the payload
	}
	if len(msgs) == 0 {
		return Decode{}, false
	}
	return Decode{Call: call, Name: goast.CalleeText(call.Fun), ErrIndex: errIndex, Msgs: msgs}, true
}

// isToEvent reports whether e calls CloudEvents' binding.ToEvent.
func (m *Result) isToEvent(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && gotypes.IsPkgFunc(gotypes.StaticCallee(m.info, call), cloudEventsBinding, "ToEvent")
}

// isProfileDecode reports whether sel selects a decode method of a
// message (its profile's Decode).
func (m *Result) isProfileDecode(sel *ast.SelectorExpr) bool {
	p := m.msgs.Profile(m.info.TypeOf(sel.X))
	return p != nil && slices.Contains(p.Decode, sel.Sel.Name)
}

// payloadMsgs adds to out the messages whose payload e is, or derives
// from by slicing, conversion or wrapping in a reader or decoder; the
// decoded value, headers and subjects are not the payload.
func (m *Result) payloadMsgs(e ast.Expr, out []*types.Var, depth int) []*types.Var {
	if e == nil || depth > defs.MaxDepth {
		return out
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr: // msg.Data, a field of *nats.Msg
		if s := m.info.Selections[e]; s != nil && s.Kind() == types.FieldVal && m.isPayload(e) {
			return messages.AddVars(out, m.msgs.Deps(e.X))
		}
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && len(e.Args) == 0 && m.isPayload(sel) {
			return messages.AddVars(out, m.msgs.Deps(sel.X)) // msg.Data()
		}
		if tv, ok := m.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return m.payloadMsgs(e.Args[0], out, depth+1) // string(data)
		}
		if m.isToEvent(e) {
			return messages.AddVars(out, m.msgs.CallDeps(e)) // the event's data is the payload
		}
		fn := gotypes.StaticCallee(m.info, e)
		if slices.ContainsFunc(readerFuncs, func(f [2]string) bool { return gotypes.IsPkgFunc(fn, f[0], f[1]) }) {
			for _, a := range e.Args {
				out = m.payloadMsgs(a, out, depth+1)
			}
			return out
		}
	case *ast.SliceExpr:
		return m.payloadMsgs(e.X, out, depth+1)
	case *ast.Ident:
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok || v.Parent() == m.pkg.Scope() {
			return out
		}
		if m.payloadParams[v] {
			return messages.AddVar(out, v) // a handler's payload parameter: its message is the caller's
		}
		for _, a := range m.defs().Reaching(v, e.Pos()) {
			if a.Index < 0 || a.Index == 0 && m.isToEvent(a.RHS) {
				out = m.payloadMsgs(a.RHS, out, depth+1) // ev, err := binding.ToEvent(...): ev holds the payload
			}
		}
	}
	return out
}

// isPayload reports whether sel selects a message's payload: its method
// or field named in the message's profile, or, for a message recognized
// by its ack methods alone (a wrapper such as a router's *Message, built
// from the library's message: Payload: raw.Data()), a []byte field or a
// method returning []byte called without arguments. The profile cannot name the
// wrapper's payload, and a wrapper's bytes are its payload: its headers,
// subject and metadata are strings and maps.
func (m *Result) isPayload(sel *ast.SelectorExpr) bool {
	t := m.info.TypeOf(sel.X)
	p := m.msgs.Profile(t)
	if p == nil {
		return false
	}
	if slices.Contains(p.Payload, sel.Sel.Name) {
		return true
	}
	if !p.Structural {
		return false // a profile's own message types name their payload
	}
	switch ft := m.info.TypeOf(sel).(type) {
	case *types.Signature:
		return ft.Results().Len() == 1 && isBytes(ft.Results().At(0).Type())
	default:
		s := m.info.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal && isBytes(ft)
	}
}

// isBytes reports whether t is []byte (or a named type of it).
func isBytes(t types.Type) bool {
	return gotypes.IsValid(t) && types.Identical(t.Underlying(), types.NewSlice(types.Typ[types.Byte]))
}

// DecodeAssignedTo returns the decode whose error v holds at pos: the
// definition of v that reaches pos, one only, assigns it a payload
// decode's error result.
func (m *Result) DecodeAssignedTo(v *types.Var, pos token.Pos) (Decode, bool) {
	defs := m.defs().Reaching(v, pos)
	if len(defs) != 1 || defs[0].RHS == nil {
		return Decode{}, false
	}
	call, ok := ast.Unparen(defs[0].RHS).(*ast.CallExpr)
	if !ok {
		return Decode{}, false
	}
	dec, ok := m.AsDecode(call)
	if !ok {
		return Decode{}, false
	}
	index := defs[0].Index
	if index < 0 {
		index = 0
	}
	return dec, index == dec.ErrIndex
}
