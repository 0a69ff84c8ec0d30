package dlq

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// IsDLQWrite reports whether call writes a dead-letter queue.
func (m *Result) IsDLQWrite(call *ast.CallExpr) bool {
	if m.info == nil || call == nil || !m.mayWrite {
		return false
	}
	if !m.MayNameDLQWrite(call) {
		return false
	}
	if tv, ok := m.info.Types[call.Fun]; ok && tv.IsType() {
		return false // conversion
	}
	return m.IsDLQWriteCall(call)
}

// MayNameDLQWrite is the part of IsDLQWriteCall that needs no type
// information: a method call can write a DLQ only when its name is a
// publish's or a DLQ writer's, or when it, its receiver (s.dlq.Write) or
// an argument (send(ctx, s.deadLetterSubject, b)) is named like a DLQ. It
// is exact: it only skips the calls for which every rule of
// IsDLQWriteCall would fail. (The package's names matching the DLQ
// pattern are known, so each test is a set lookup.)
func (m *Result) MayNameDLQWrite(call *ast.CallExpr) bool {
	name, ident := goast.CalledName(call.Fun)
	if name == "" || m.names == nil {
		return true // a literal, or a call's result
	}
	if ident && defs.MayBeFuncValue(m.info, call.Fun) {
		return true // a func value: the literal it holds may write
	}
	// A function's, a builtin's or a type's name: its name and arguments
	// tell, as a method's do (IsDLQWrite turns conversions away).
	if m.msgs.IsPublish(name) || m.writerNames[name] || m.imported.WriterNames[name] || len(m.cfg.Funcs) > 0 {
		return true
	}
	dlq := m.names
	if len(dlq) == 0 {
		return false
	}
	if dlq[name] {
		return true
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && dlqNamedExpr(sel.X, dlq) {
		return true
	}
	return slices.ContainsFunc(call.Args, func(arg ast.Expr) bool { return dlqNamedExpr(arg, dlq) })
}

// The cheap tests on names come first: nearly no call is a DLQ write.
func (m *Result) IsDLQWriteCall(call *ast.CallExpr) bool {
	returnsError := func() bool {
		_, errIndex := m.CallResults(call)
		return errIndex >= 0
	}
	if fn := gotypes.StaticCallee(m.info, call); fn != nil {
		if m.nonWriters[fn] {
			return false // named like a writer, it settles without writing
		}
		if m.IsDLQWriter(fn) {
			return !m.isAck(call)
		}
		name := fn.Name()
		publish, named := m.msgs.IsPublish(name), m.isDLQName(name)
		recv := false
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && !publish && !named {
			recv = m.dlqReceiverNamed(call)
		}
		dest := false
		if !publish && !named && !recv {
			if dest = m.sendsToDLQArg(call, fn); !dest {
				return false
			}
		}
		if !returnsError() || m.isAck(call) {
			return !m.isAck(call) && m.voidSink(call, fn)
		}
		switch {
		case publish && m.publishesToDLQ(fn, call):
			return true
		case named && !startsWithNonWriteVerb(name):
			return true
		case dest:
			return true
		case recv || (publish || named) && sig(fn) != nil && sig(fn).Recv() != nil:
			if m.dlqReceiver(fn, call) {
				return true
			}
		}
		return m.sendsToDLQArg(call, fn)
	}
	if m.isAck(call) {
		return false
	}
	// A call through a func value: a literal, a local variable bound to one,
	// or a func-valued field or variable named like a DLQ writer.
	if lit := defs.FuncLitOf(m.info, m.defs, call.Fun); lit != nil && m.FuncLitWritesDLQ(lit) {
		return true
	}
	if !returnsError() {
		return m.voidSink(call, nil)
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if m.isDLQName(fun.Name) && !startsWithNonWriteVerb(fun.Name) {
			return true
		}
	case *ast.SelectorExpr:
		if m.isDLQName(fun.Sel.Name) && !startsWithNonWriteVerb(fun.Sel.Name) {
			return true
		}
	}
	return m.sendsToDLQArg(call, nil)
}

// dlqReceiverNamed reports whether a method call's receiver expression is
// a variable or field whose name matches the DLQ pattern: the cheap part
// of dlqReceiver.
func (m *Result) dlqReceiverNamed(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.Ident:
		return m.isDLQName(x.Name)
	case *ast.SelectorExpr:
		return m.isDLQName(x.Sel.Name)
	}
	return false
}

// dlqReceiver reports whether a method call's receiver is a variable or
// field named like a DLQ (s.dlq.Write, dlqWriter.Send, c.deadLetters.Put
// on a key-value bucket). Ack methods, closers and library calls other
// than publishes and the profiles' store methods (KV Put, Create, Update,
// object store Put) do not write.
func (m *Result) dlqReceiver(fn *types.Func, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || startsWithNonWriteVerb(fn.Name()) && !m.msgs.IsStore(fn) { // a bucket's Create stores
		return false
	}
	if m.msgs.IsMessage(m.info.TypeOf(sel.X)) {
		return false
	}
	if p := fn.Pkg(); p != nil && m.msgs.Library(p.Path()) != nil && !m.msgs.IsPublish(fn.Name()) && !m.msgs.IsStore(fn) {
		return false // a library call that neither publishes nor stores (a bucket's Get, Keys)
	}
	var name string
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.Ident:
		if _, isVar := m.info.Uses[x].(*types.Var); !isVar {
			return false
		}
		name = x.Name
	case *ast.SelectorExpr:
		if s := m.info.Selections[x]; s == nil || s.Kind() != types.FieldVal {
			return false
		}
		name = x.Sel.Name
	default:
		return false
	}
	return m.isDLQName(name)
}

// IsDLQWriter reports whether fn (any package) writes a DLQ on some path:
// it is named in Config.DLQFuncs, marked //retrylint:dlq, inferred for the
// package under analysis, or carries a DLQWriterFact.
func (m *Result) IsDLQWriter(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if m.cfg.Funcs.Names(fn) {
		return true
	}
	if fn.Pkg() == m.pkg {
		return m.writers[fn]
	}
	if fn.Pkg() == nil {
		return false
	}
	_, ok := m.imported.Writers[fn]
	return ok
}

// FuncLitWritesDLQ reports whether a function literal's body writes a DLQ.
func (m *Result) FuncLitWritesDLQ(lit *ast.FuncLit) bool {
	if m.lits == nil && !m.frozen {
		m.lits = make(map[*ast.FuncLit]bool)
	}
	if v, ok := m.lits[lit]; ok || m.frozen {
		return v // frozen: Build filled the memo for every literal
	}
	m.lits[lit] = false // cycle guard
	v := m.BodyWritesDLQ(lit.Body)
	m.lits[lit] = v
	return v
}

// BodyWritesDLQ reports whether a function body makes a DLQ write: a call
// in the body, in a deferred or go statement, or in a function literal it
// calls. Literals it only passes along (callbacks, handlers) are not known
// to run.
func (m *Result) BodyWritesDLQ(body *ast.BlockStmt) bool {
	for _, call := range m.callsOf(body) {
		if m.IsDLQWrite(call) {
			return true
		}
	}
	return false
}

// callsLocal reports whether body calls a function of the package or a
// func value: what it does can change as the package's facts grow.
func (m *Result) callsLocal(body *ast.BlockStmt) bool {
	for _, call := range m.callsOf(body) {
		if fn := gotypes.StaticCallee(m.info, call); fn != nil {
			if fn.Pkg() == m.pkg {
				return true
			}
			continue
		}
		if tv := m.info.Types[call.Fun]; !tv.IsType() && !tv.IsBuiltin() {
			return true
		}
	}
	return false
}

// voidSink reports whether call, which returns nothing, is a call of a
// dead-letter sink whose body the analysis cannot see: a func value
// (cfg.deadLetterSink(ctx, ev)) or an interface method (s.dlq.Write(ev))
// named like a DLQ, or a method of an interface on a receiver so named.
// Functions and concrete methods are writers by what their bodies do
// (inferred here or known through facts), not by their names. A sink
// writes something: a call whose arguments are all numbers, strings or
// booleans (a counter's dlqTotal.Add(1), Inc()) is bookkeeping, not a
// write.
func (m *Result) voidSink(call *ast.CallExpr, fn *types.Func) bool {
	if t := m.info.TypeOf(call); t == nil || !isEmptyTuple(t) {
		return false
	}
	var name string
	switch {
	case fn == nil: // a func value
		name, _ = calleeName(call.Fun)
	case isInterfaceMethod(fn):
		name = fn.Name()
		if !m.isDLQName(name) && m.dlqReceiverNamed(call) && !startsWithNonWriteVerb(name) {
			name = "dlq" // s.dlq.Write(ev) on a Sink interface
		}
	default:
		return false
	}
	if name == "" || !m.isDLQName(name) || startsWithNonWriteVerb(name) {
		return false
	}
	for _, a := range call.Args {
		if b, ok := m.info.TypeOf(a).Underlying().(*types.Basic); !ok || b.Info()&(types.IsNumeric|types.IsString|types.IsBoolean) == 0 {
			return true
		}
	}
	return false
}
