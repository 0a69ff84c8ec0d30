// Package messages is the contract model's knowledge of messages, from the
// message-library profiles: which types are messages, which calls are ack
// calls and what each settles, which are publish calls, and which message
// variables a value derives from ("the same message"). Nothing here names
// a library's method: the profiles do. It reads the syntax and defs stages
// and the type information.
package messages

import (
	"go/ast"
	"go/types"
	"slices"
	"sort"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Table answers the questions about messages of one package. It is
// complete when Build returns and read-only afterwards.
type Table struct {
	info     *types.Info
	pkg      *types.Package
	profiles []*profile.Profile
	names    LibraryNames
	defs     func() *defs.Index // the flow index, built on demand by the model
	acks     map[*ast.CallExpr]AckCall
	// unredelivered are the variables whose messages nothing redelivers
	// (redelivery.go).
	unredelivered map[*types.Var]bool
	// ackIfaces are the parameter interfaces of ack methods (ackiface.go).
	ackIfaces []ackIface
}

// IsMessage reports whether t is a message of some profile: one of its
// message types (or a pointer to one), or, for a structural profile, any
// type or interface whose method set has its Done method together with its
// RetryNow or Terminate method (ack options allowed).
func (m *Table) IsMessage(t types.Type) bool { return m.Profile(t) != nil }

// Profile returns the profile t is a message of, or nil.
func (m *Table) Profile(t types.Type) *profile.Profile {
	if !gotypes.IsValid(t) {
		return nil
	}
	elem := t
	if p, ok := t.Underlying().(*types.Pointer); ok {
		elem = p.Elem()
	}
	for _, p := range m.profiles {
		for _, mt := range p.Messages {
			if gotypes.IsNamed(t, mt.Path, mt.Name) || gotypes.IsNamed(elem, mt.Path, mt.Name) {
				return p
			}
		}
	}
	for _, p := range m.profiles {
		if p.Structural && m.isAckMethod(t, p.Method(profile.Done)) &&
			(m.isAckMethod(t, p.Method(profile.RetryNow)) || m.isAckMethod(t, p.Method(profile.Terminate))) {
			return p
		}
	}
	for _, a := range m.ackIfaces {
		if types.Identical(a.t, t) {
			return a.p // a parameter interface of ack methods (ackiface.go)
		}
	}
	return nil
}

// ackIface is an interface of ack methods and its profile.
type ackIface struct {
	t types.Type
	p *profile.Profile
}

// isAckMethod reports whether t (or *t) has name(opts...) error, where any
// parameters are a single variadic option list.
func (m *Table) isAckMethod(t types.Type, name string) bool {
	if name == "" {
		return false
	}
	fn := gotypes.PointerMethodOf(t, m.pkg, name)
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 1 || !gotypes.IsError(sig.Results().At(0).Type()) {
		return false
	}
	switch sig.Params().Len() {
	case 0:
		return true
	case 1:
		return sig.Variadic()
	}
	return false
}

// AckCall describes a call of an acknowledgement method on a message.
type AckCall struct {
	Call *ast.CallExpr
	Recv ast.Expr // the message expression
	// Method is the ack method's name as written (Nak, TermWithReason).
	Method string
	// Settlement is what the method tells the broker.
	Settlement profile.Settlement
	// Profile is the message library the receiver belongs to.
	Profile *profile.Profile
}

// AsAckCall recognizes msg.Ack(), msg.Nak(), msg.Term()... on a message,
// and calls of a local variable bound to such a method value
// (term := msg.Term; term()) by its one definition that reaches the call.
func (m *Table) AsAckCall(call *ast.CallExpr) (AckCall, bool) {
	a, ok := m.acks[call]
	return a, ok
}

func (m *Table) asAckCall(call *ast.CallExpr) (AckCall, bool) {
	if m.info == nil {
		return AckCall{}, false
	}
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok {
			return AckCall{}, false
		}
		defs := m.defs().Reaching(v, call.Pos())
		if len(defs) != 1 || defs[0].RHS == nil || defs[0].Index >= 0 {
			return AckCall{}, false
		}
		fun = ast.Unparen(defs[0].RHS)
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || !m.names.Ack[sel.Sel.Name] {
		return AckCall{}, false
	}
	if s := m.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return AckCall{}, false
	}
	p := m.Profile(m.info.TypeOf(sel.X))
	if p == nil || p.AckMethods[sel.Sel.Name] == "" {
		return AckCall{}, false
	}
	return AckCall{Call: call, Recv: sel.X, Method: sel.Sel.Name, Settlement: p.AckMethods[sel.Sel.Name], Profile: p}, true
}

// IsBareNak reports whether an ack call redelivers at once, without a
// delay: Nak() or the legacy Nak(opts...) whose options carry no delay.
func (a AckCall) IsBareNak() bool { return a.Settlement == profile.RetryNow }

// IsTerm reports whether an ack call terminates the message.
func (a AckCall) IsTerm() bool { return a.Settlement == profile.Terminate }

// IsAck reports whether an ack call acknowledges success.
func (a AckCall) IsAck() bool { return a.Settlement == profile.Done }

// IsPublish reports whether name is a publish call of some profile.
func (m *Table) IsPublish(name string) bool { return m.names.Publish[name] }

// Names returns the profiles' ack and publish names.
func (m *Table) Names() LibraryNames { return m.names }

// LibraryNames are the names of the profiles' ack methods and publish
// calls, each in one set: the model tests nearly every call's name
// against them.
type LibraryNames struct {
	Ack, Publish map[string]bool
}

// NamedIn reports whether some ack method is among names.
func (n LibraryNames) NamedIn(names map[string]bool) bool {
	for name := range n.Ack {
		if names[name] {
			return true
		}
	}
	return false
}

// NewLibraryNames collects the ack and publish names of profiles.
func NewLibraryNames(profiles []*profile.Profile) LibraryNames {
	n := LibraryNames{Ack: make(map[string]bool), Publish: make(map[string]bool)}
	for _, p := range profiles {
		for name := range p.AckMethods {
			n.Ack[name] = true
		}
		for _, name := range p.Publish {
			n.Publish[name] = true
		}
	}
	return n
}

// Library returns the profile whose packages hold path, or nil.
func (m *Table) Library(path string) *profile.Profile {
	for _, p := range m.profiles {
		if slices.Contains(p.Packages, path) {
			return p
		}
	}
	return nil
}

// IsPublishMsg reports whether t is a profile's publish-message type or a
// pointer to one.
func (m *Table) IsPublishMsg(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return slices.ContainsFunc(m.profiles, func(p *profile.Profile) bool {
		return p.PublishMsg != nil && gotypes.IsNamed(t, p.PublishMsg.Path, p.PublishMsg.Name)
	})
}

// IsPublishMsgNew reports whether fn is a profile's publish-message
// constructor (nats.NewMsg).
func (m *Table) IsPublishMsgNew(fn *types.Func) bool {
	return slices.ContainsFunc(m.profiles, func(p *profile.Profile) bool {
		return p.PublishMsgNew != nil && gotypes.IsPkgFunc(fn, p.PublishMsgNew.Path, p.PublishMsgNew.Name)
	})
}

// DelayedRetry returns the method that redelivers msg after a delay in
// its library (NakWithDelay), for messages: the first profile's when msg's
// library is not known.
func (m *Table) DelayedRetry(msg ast.Expr) string {
	if p := m.Profile(m.info.TypeOf(msg)); p != nil && p.DelayedRetry() != "" {
		return p.DelayedRetry()
	}
	if len(m.profiles) > 0 {
		return m.profiles[0].DelayedRetry()
	}
	return "a delayed retry"
}

// ParamVars returns the variables of a function type's parameters, in
// order (nil for blank or unnamed ones).
func ParamVars(info *types.Info, ft *ast.FuncType) []*types.Var {
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

// MessageParams returns the variables of a function type's parameters
// that hold messages, in order (blank and unnamed ones left out).
func (m *Table) MessageParams(ft *ast.FuncType) []*types.Var {
	var out []*types.Var
	for _, v := range ParamVars(m.info, ft) {
		if v != nil && m.IsMessage(v.Type()) {
			out = append(out, v)
		}
	}
	return out
}

// IsMessageVar reports whether e names a variable holding a message.
func (m *Table) IsMessageVar(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	return ok && m.IsMessage(v.Type())
}

// HoldsMessages reports whether t is a message or a pointer, slice, array,
// map or channel of messages.
func (m *Table) HoldsMessages(t types.Type, depth int) bool {
	if !gotypes.IsValid(t) || depth > 2 {
		return false
	}
	if m.IsMessage(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return m.HoldsMessages(u.Elem(), depth+1)
	case *types.Slice:
		return m.HoldsMessages(u.Elem(), depth+1)
	case *types.Array:
		return m.HoldsMessages(u.Elem(), depth+1)
	case *types.Map:
		return m.HoldsMessages(u.Elem(), depth+1)
	case *types.Chan:
		return m.HoldsMessages(u.Elem(), depth+1)
	}
	return false
}

// AddVar adds v to the position-sorted set vs.
func AddVar(vs []*types.Var, v *types.Var) []*types.Var {
	if slices.Contains(vs, v) {
		return vs
	}
	i := sort.Search(len(vs), func(i int) bool { return vs[i].Pos() > v.Pos() })
	return slices.Insert(vs, i, v)
}

func AddVars(out, vs []*types.Var) []*types.Var {
	for _, v := range vs {
		out = AddVar(out, v)
	}
	return out
}

// libraryMethod returns the profile of fn's package and fn's name, or nil.
func (m *Table) libraryMethod(fn *types.Func) (*profile.Profile, string) {
	if fn == nil || fn.Pkg() == nil {
		return nil, ""
	}
	return m.Library(fn.Pkg().Path()), fn.Name()
}

// IsStore reports whether fn is a library's store method (a key-value
// bucket's Put): on a receiver named like a DLQ, it writes it.
func (m *Table) IsStore(fn *types.Func) bool {
	p, name := m.libraryMethod(fn)
	return p != nil && slices.Contains(p.Store, name)
}

// IsBufferedPublish reports whether fn is a publish that only buffers
// (core NATS's (*nats.Conn).Publish): its nil error does not say the
// message was stored.
func (m *Table) IsBufferedPublish(fn *types.Func) bool {
	p, name := m.libraryMethod(fn)
	if p == nil || p.Buffered == nil || !slices.Contains(p.BufferedPublish, name) {
		return false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	return gotypes.IsNamed(t, p.Buffered.Path, p.Buffered.Name)
}

// IsAsyncPublish reports whether fn is a publish that returns a future
// (PublishAsync).
func (m *Table) IsAsyncPublish(fn *types.Func) bool {
	p, name := m.libraryMethod(fn)
	return p != nil && slices.Contains(p.Async, name)
}

// IsAwait reports whether fn waits for an async publish's outcome (a
// future's Ok or Err, PublishAsyncComplete).
func (m *Table) IsAwait(fn *types.Func) bool {
	p, name := m.libraryMethod(fn)
	return p != nil && slices.Contains(p.Await, name)
}

// AwaitNames returns the await calls of fn's library, for messages.
func (m *Table) AwaitNames(fn *types.Func) []string {
	p, _ := m.libraryMethod(fn)
	if p == nil {
		return nil
	}
	return p.Await
}
