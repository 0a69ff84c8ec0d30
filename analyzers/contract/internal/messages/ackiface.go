package messages

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Message types, wider (CONTRACT.md version 3): an interface whose
// methods are all ack methods of a profile (type Acker interface{ Ack()
// error }, a Naker), used as the type of a parameter of a function of the
// package, is a message type there, so that func ack(a Acker) { a.Ack() }
// is a helper that Acks the message it is given (its effect is a fact,
// judged at the call sites of any package). Decided: only parameter types
// count (the contract says "a parameter type of a helper"); a field or a
// variable of such a type elsewhere is not a message, and neither is an
// interface that also has a method that is no ack method (io.Closer's
// Close beside Ack).

// ackInterfaces returns the interface types of the parameters of the
// functions of files (declarations and literals) whose methods are all
// ack methods of one profile, with that profile.
func (m *Table) ackInterfaces(funcTypes []*ast.FuncType) []ackIface {
	var out []ackIface
	for _, ft := range funcTypes {
		if ft.Params == nil {
			continue
		}
		for _, f := range ft.Params.List {
			t := m.info.TypeOf(f.Type)
			if t == nil {
				continue
			}
			if _, iface := t.Underlying().(*types.Interface); !iface || slices.ContainsFunc(out, func(a ackIface) bool { return types.Identical(a.t, t) }) {
				continue // most parameters are not interfaces: no further test
			}
			if p := m.ackInterfaceProfile(t); p != nil {
				out = append(out, ackIface{t: t, p: p})
			}
		}
	}
	return out
}

// ackInterfaceProfile returns the first profile all of whose methods t's
// are, when t is an interface with at least one method, each returning an
// error as its last result.
func (m *Table) ackInterfaceProfile(t types.Type) *profile.Profile {
	if !gotypes.IsValid(t) {
		return nil
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return nil
	}
	for _, p := range m.profiles {
		all := true
		for i := range iface.NumMethods() {
			fn := iface.Method(i)
			sig, ok := fn.Type().(*types.Signature)
			if _, ack := p.AckMethods[fn.Name()]; !ack || !ok || sig.Results().Len() == 0 ||
				!gotypes.IsError(sig.Results().At(sig.Results().Len()-1).Type()) {
				all = false
				break
			}
		}
		if all {
			return p
		}
	}
	return nil
}
