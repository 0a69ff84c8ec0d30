package contract

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Messages and their ack methods come from the configured message-library
// profiles (package profile): nothing here names a library's method.

// IsMessage reports whether t is a message of some profile: one of its
// message types (or a pointer to one), or, for a structural profile, any
// type or interface whose method set has its Done method together with its
// RetryNow or Terminate method (ack options allowed).
func (m *Model) IsMessage(t types.Type) bool { return m.messageProfile(t) != nil }

// messageProfile returns the profile t is a message of, or nil.
func (m *Model) messageProfile(t types.Type) *profile.Profile {
	if !gotypes.IsValid(t) {
		return nil
	}
	if p, ok := m.msgTypes[t]; ok {
		return p
	}
	p := m.lookupMessageProfile(t)
	if !m.frozen {
		m.msgTypes[t] = p // a memo while the model runs; read-only afterwards
	}
	return p
}

func (m *Model) lookupMessageProfile(t types.Type) *profile.Profile {
	elem := t
	if p, ok := t.Underlying().(*types.Pointer); ok {
		elem = p.Elem()
	}
	for _, p := range m.cfg.Profiles {
		for _, mt := range p.Messages {
			if gotypes.IsNamed(t, mt.Path, mt.Name) || gotypes.IsNamed(elem, mt.Path, mt.Name) {
				return p
			}
		}
	}
	for _, p := range m.cfg.Profiles {
		if p.Structural && m.isAckMethod(t, p.Method(profile.Done)) &&
			(m.isAckMethod(t, p.Method(profile.RetryNow)) || m.isAckMethod(t, p.Method(profile.Terminate))) {
			return p
		}
	}
	return nil
}

// isAckMethod reports whether t (or *t) has name(opts...) error, where any
// parameters are a single variadic option list.
func (m *Model) isAckMethod(t types.Type, name string) bool {
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
func (m *Model) AsAckCall(call *ast.CallExpr) (AckCall, bool) {
	if m.ackTable == nil {
		if m.syn == nil || m.vocab == nil {
			return m.asAckCall(call)
		}
		m.indexAckCalls() // while the model runs; freeze makes sure of it
	}
	a, ok := m.ackTable[call]
	return a, ok
}

// indexAckCalls recognizes the ack calls of the package once: nearly every
// inference asks about every call, and the table of the few ack calls
// answers without touching the call's syntax again.
func (m *Model) indexAckCalls() {
	m.ackTable = make(map[*ast.CallExpr]AckCall)
	if !m.vocab.ackNames {
		return // no ack method is named in the package
	}
	for _, s := range m.syn.Sites {
		if call, ok := s.Node.(*ast.CallExpr); ok {
			if a, ok := m.asAckCall(call); ok {
				m.ackTable[call] = a
			}
		}
	}
}

func (m *Model) asAckCall(call *ast.CallExpr) (AckCall, bool) {
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
	if !ok || !m.libNames.ack[sel.Sel.Name] {
		return AckCall{}, false
	}
	if s := m.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return AckCall{}, false
	}
	p := m.messageProfile(m.info.TypeOf(sel.X))
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

// isPublish reports whether name is a publish call of some profile.
func (m *Model) isPublish(name string) bool { return m.libNames.publish[name] }

// libraryNames are the names of the profiles' ack methods and publish
// calls, each in one set: the model tests nearly every call's name
// against them.
type libraryNames struct {
	ack, publish map[string]bool
}

func newLibraryNames(profiles []*profile.Profile) libraryNames {
	n := libraryNames{ack: make(map[string]bool), publish: make(map[string]bool)}
	for _, p := range profiles {
		for name := range p.AckMethods {
			n.ack[name] = true
		}
		for _, name := range p.Publish {
			n.publish[name] = true
		}
	}
	return n
}

// libraryProfile returns the profile whose packages hold path, or nil.
func (m *Model) libraryProfile(path string) *profile.Profile {
	for _, p := range m.cfg.Profiles {
		if slices.Contains(p.Packages, path) {
			return p
		}
	}
	return nil
}

// isPublishMsg reports whether t is a profile's publish-message type or a
// pointer to one.
func (m *Model) isPublishMsg(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return slices.ContainsFunc(m.cfg.Profiles, func(p *profile.Profile) bool {
		return p.PublishMsg != nil && gotypes.IsNamed(t, p.PublishMsg.Path, p.PublishMsg.Name)
	})
}

// isPublishMsgNew reports whether fn is a profile's publish-message
// constructor (nats.NewMsg).
func (m *Model) isPublishMsgNew(fn *types.Func) bool {
	return slices.ContainsFunc(m.cfg.Profiles, func(p *profile.Profile) bool {
		return p.PublishMsgNew != nil && gotypes.IsPkgFunc(fn, p.PublishMsgNew.Path, p.PublishMsgNew.Name)
	})
}

// DelayedRetry returns the method that redelivers msg after a delay in
// its library (NakWithDelay), for messages: the first profile's when msg's
// library is not known.
func (m *Model) DelayedRetry(msg ast.Expr) string {
	if p := m.messageProfile(m.info.TypeOf(msg)); p != nil && p.DelayedRetry() != "" {
		return p.DelayedRetry()
	}
	if len(m.cfg.Profiles) > 0 {
		return m.cfg.Profiles[0].DelayedRetry()
	}
	return "a delayed retry"
}
