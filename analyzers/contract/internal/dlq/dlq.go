// Package dlq is the contract model's dead-letter queues: which calls
// write one (by name, receiver, publish subject or destination argument,
// configuration, directive or facts), which functions of the package write
// one on some path, and what a writer's error tells of the write it makes.
// It reads the syntax, defs and messages stages, the facts of the
// dependencies and the type information.
package dlq

import (
	"go/ast"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// DLQDirective, in the doc comment of a function, declares that the
// function writes a dead-letter queue although nothing in its name or body
// says so.
const DLQDirective = "//retrylint:dlq"

// nonWriteVerbs are the leading words of names that configure, build or
// inspect a dead-letter queue rather than write to it: NewDLQWriter,
// ensureDLQStream, s.dlq.Close. A name matching the DLQ pattern does not make
// a write of a call whose name starts with one of them.
var nonWriteVerbs = []string{
	"new", "open", "close", "parse", "load", "get", "is", "has", "validate",
	"init", "setup", "ensure", "create", "start", "stop", "shutdown",
	"connect", "register", "configure", "lookup", "find", "fetch", "read",
	"list", "count", "delete", "purge", "drain", "subscribe", "unsubscribe",
	"consume", "with", "mark", "set", "must", "ping", "err", "stats",
	"info", "status", "describe", "health", "check", "peek", "next",
	"receive", "handle", "process", "replay", "redrive", "ack", "nak", "term",
	"len", "size", "exists", "entries",
}

// Config is what the stage reads of the configuration.
type Config struct {
	// DLQName and DLQSubject match names and subjects of dead-letter
	// queues.
	DLQName, DLQSubject *regexp.Regexp
	// Configured reports whether a function is named in dlq-funcs;
	// AnyConfigured whether any is.
	Configured    func(fn *types.Func) bool
	AnyConfigured bool
}

// Imported is what the facts of the dependencies say about DLQ writers.
type Imported struct {
	Writers     map[*types.Func]WriterKind // DLQWriterFact
	WriterNames map[string]bool            // their names
}

// Inputs are what Build reads: the earlier stages, the facts of the
// dependencies and the configuration.
type Inputs struct {
	Info      *types.Info
	Pkg       *types.Package
	Config    Config
	Names     map[string]bool // the package's identifiers that match DLQName
	MayWrite  bool            // the gate: a DLQ write can be found in the package
	Imported  Imported
	Msgs      *messages.Table
	Defs      func() *defs.Index
	CallsOf   func(body *ast.BlockStmt) []*ast.CallExpr
	Decls     []*ast.FuncDecl
	Lits      []*ast.FuncLit
	Files     []*ast.File
	TestFuncs map[*ast.FuncDecl]bool // out of scope
}

// Result is what the model knows about DLQ writes in the package. It is
// complete when Build returns and read-only afterwards.
type Result struct {
	info      *types.Info
	pkg       *types.Package
	cfg       Config
	names     map[string]bool
	mayWrite  bool
	imported  Imported
	msgs      *messages.Table
	defs      func() *defs.Index
	callsOf   func(body *ast.BlockStmt) []*ast.CallExpr
	files     []*ast.File
	testFuncs map[*ast.FuncDecl]bool

	writers map[*types.Func]bool // functions of the package that write a DLQ on some path
	// writerNames are the writers' names, for the cheap test of
	// MayNameDLQWrite.
	writerNames map[string]bool
	kinds       map[*types.Func]WriterKind // what their errors tell (kinds.go)
	lits        map[*ast.FuncLit]bool      // function literals whose body writes a DLQ
	frozen      bool                       // set when Build returns: lits holds every literal
}

// Build infers the package's DLQ writers (when the gate lets a write be
// found), then which function literals write.
func Build(in Inputs) *Result {
	m := &Result{info: in.Info, pkg: in.Pkg, cfg: in.Config, names: in.Names, mayWrite: in.MayWrite,
		imported: in.Imported, msgs: in.Msgs, defs: in.Defs, callsOf: in.CallsOf, files: in.Files, testFuncs: in.TestFuncs}
	if m.mayWrite {
		m.inferDLQWriters(in.Decls)
		m.lits = nil
		for _, lit := range in.Lits {
			m.FuncLitWritesDLQ(lit)
		}
	}
	m.frozen = true
	return m
}

// Writers returns the package's DLQ writers.
func (m *Result) Writers() map[*types.Func]bool { return m.writers }

// Kind returns what the error of fn, a DLQ writer of the package, tells.
func (m *Result) Kind(fn *types.Func) WriterKind { return m.kinds[fn] }

// DLQWrite describes a call that writes a dead-letter queue.
type DLQWrite struct {
	Call *ast.CallExpr
	// Name is the callee as written (js.Publish, s.dlq.Write, deadLetter),
	// for messages; empty for a function literal called on the spot.
	Name string
	// ErrIndex is the index of the error result among the call's results,
	// -1 when the call returns no error (a writer known through facts,
	// //retrylint:dlq or configuration may return nothing to check).
	ErrIndex int
	// Results is the number of the call's results.
	Results int
	// Msgs are the message variables the write's operands derive from
	// (the message, its data, subject, headers or metadata); empty when it
	// takes no message-derived value.
	Msgs []*types.Var
	// Checked is set when the call's error is the write's outcome: a
	// direct write, a named or configured writer, or a writer whose error
	// may hold the error of the write it makes. Only then do "discarded"
	// and "failure branch" mean the evidence may be lost.
	Checked bool
	// Swallows is set for a call of a writer that always writes and drops
	// the write's error: an unchecked DLQ write whatever it returns.
	Swallows bool
}

// HasError reports whether the write returns an error that can be checked.
func (w DLQWrite) HasError() bool { return w.ErrIndex >= 0 }

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
	if m.msgs.IsPublish(name) || m.writerNames[name] || m.imported.WriterNames[name] || m.cfg.AnyConfigured {
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

// dlqNamedExpr reports whether e is an identifier or selector, or a
// dereference of one, whose name is among the DLQ names: what
// dlqReceiverNamed and isDLQDestination can accept.
func dlqNamedExpr(e ast.Expr, dlq map[string]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return dlqNamedExpr(e.X, dlq)
	case *ast.Ident:
		return dlq[e.Name]
	case *ast.SelectorExpr:
		return dlq[e.Sel.Name]
	}
	return false
}

// AsDLQWrite recognizes a DLQ write, as CONTRACT.md defines it:
//
//   - a call that returns an error and whose function, method or func-valued
//     field or variable has a name matching Config.DLQName (OnDeadLetter,
//     publishDLQ), unless the name starts with a verb that configures or
//     inspects (NewDLQWriter, ensureDLQStream);
//   - a call that returns an error of a method of any name on a receiver
//     variable or field whose name matches Config.DLQName (s.dlq.Write),
//     except ack methods, publish-less NATS calls and closers;
//   - a publish (Publish, PublishMsg, PublishAsync, PublishMsgAsync,
//     Request) returning an error whose subject has a constant part
//     matching Config.DLQSubject, or is a variable, field or call whose name
//     matches Config.DLQName (s.cfg.DeadLetterSubject);
//   - a call of a function named in Config.DLQFuncs, marked //retrylint:dlq,
//     or known (through DLQWriterFact for other packages) to write a DLQ on
//     some path, whatever it returns;
//   - a call of a function literal, directly or through a local variable,
//     whose body writes a DLQ.
func (m *Result) AsDLQWrite(call *ast.CallExpr) (DLQWrite, bool) {
	if !m.IsDLQWrite(call) {
		return DLQWrite{}, false
	}
	w := DLQWrite{Call: call, Name: goast.CalleeText(call.Fun), ErrIndex: -1}
	w.Results, w.ErrIndex = m.CallResults(call)
	w.Checked, w.Swallows = m.writeOutcome(call, w.HasError())
	w.Msgs = m.msgs.CallDeps(call)
	return w, true
}

// The cheap tests on names come first: nearly no call is a DLQ write.
func (m *Result) IsDLQWriteCall(call *ast.CallExpr) bool {
	returnsError := func() bool {
		_, errIndex := m.CallResults(call)
		return errIndex >= 0
	}
	if fn := gotypes.StaticCallee(m.info, call); fn != nil {
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
			return false
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
		return false
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

// isAck reports whether call is an ack call: never a DLQ write.
func (m *Result) isAck(call *ast.CallExpr) bool {
	_, ok := m.msgs.AsAckCall(call)
	return ok
}

func sig(fn *types.Func) *types.Signature {
	s, _ := fn.Type().(*types.Signature)
	return s
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
// field named like a DLQ (s.dlq.Write, dlqWriter.Send). Ack methods, closers
// and NATS calls other than publishes do not write.
func (m *Result) dlqReceiver(fn *types.Func, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || startsWithNonWriteVerb(fn.Name()) {
		return false
	}
	if m.msgs.IsMessage(m.info.TypeOf(sel.X)) {
		return false
	}
	if p := fn.Pkg(); p != nil && m.msgs.Library(p.Path()) != nil && !m.msgs.IsPublish(fn.Name()) {
		return false
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
	if m.cfg.Configured(fn) {
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

// CallResults returns the number of results of call and the index of its
// last error result (-1 if none).
func (m *Result) CallResults(call *ast.CallExpr) (n, errIndex int) {
	t := m.info.TypeOf(call)
	if !gotypes.IsValid(t) {
		return 0, -1
	}
	if tup, ok := t.(*types.Tuple); ok {
		errIndex = -1
		for i := 0; i < tup.Len(); i++ {
			if gotypes.IsError(tup.At(i).Type()) {
				errIndex = i
			}
		}
		return tup.Len(), errIndex
	}
	if gotypes.IsError(t) {
		return 1, 0
	}
	return 1, -1
}

// startsWithNonWriteVerb reports whether name's first word is one of
// nonWriteVerbs: NewDLQWriter, ensureDeadLetterStream, MarkDLQReady.
func startsWithNonWriteVerb(name string) bool {
	lower := strings.ToLower(name)
	for _, v := range nonWriteVerbs {
		if !strings.HasPrefix(lower, v) {
			continue
		}
		rest := name[len(v):]
		if rest == "" || rest[0] == '_' {
			return true
		}
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsUpper(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// FuncLitWritesDLQ reports whether a function literal's body writes a DLQ.
func (m *Result) FuncLitWritesDLQ(lit *ast.FuncLit) bool {
	if m.lits == nil && !m.frozen {
		m.lits = make(map[*ast.FuncLit]bool)
	}
	if v, ok := m.lits[lit]; ok || m.frozen {
		return v // frozen: freeze filled the memo for every literal
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

// inferDLQWriters finds, to a fixpoint, the package's functions that make a
// DLQ write on some path; functions marked //retrylint:dlq or named in
// Config.DLQFuncs are writers whatever their body.
func (m *Result) inferDLQWriters(decls []*ast.FuncDecl) {
	m.writers = make(map[*types.Func]bool)
	m.writerNames = make(map[string]bool)
	for _, d := range decls {
		if fn, _ := m.info.Defs[d.Name].(*types.Func); fn != nil && HasDirective(d) {
			m.writers[fn] = true
			m.writerNames[fn.Name()] = true
		}
	}
	// After the first round, only a function that calls a function of the
	// package or a func value can become a writer.
	pending := decls
	for changed := true; changed; {
		changed = false
		m.lits = nil
		var next []*ast.FuncDecl
		for _, d := range pending {
			fn, _ := m.info.Defs[d.Name].(*types.Func)
			if fn == nil || d.Body == nil || m.writers[fn] {
				continue
			}
			if m.BodyWritesDLQ(d.Body) {
				m.writers[fn] = true
				m.writerNames[fn.Name()] = true
				changed = true
			} else if m.callsLocal(d.Body) {
				next = append(next, d)
			}
		}
		pending = next
	}
	m.lits = nil
	m.inferWriterKinds(decls)
}

// HasDirective reports whether a declaration's doc comment holds
// //retrylint:dlq.
func HasDirective(d *ast.FuncDecl) bool {
	if d.Doc == nil {
		return false
	}
	for _, c := range d.Doc.List {
		if rest, ok := strings.CutPrefix(c.Text, DLQDirective); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return true
		}
	}
	return false
}

// isDLQName reports whether name matches the DLQ name pattern.
func (m *Result) isDLQName(name string) bool {
	if m.names != nil {
		if m.names[name] {
			return true
		}
		if len(m.names) == 0 {
			return false
		}
	}
	return m.cfg.DLQName.MatchString(name)
}

// WriterKind says what a DLQ writer's error tells of its DLQ write.
type WriterKind int

const (
	// CheckedWriter: its error may hold the write's own error, so the
	// caller can check the write (the zero value).
	CheckedWriter WriterKind = iota
	// OrderingWriter: it writes on some path, but its error is about other
	// work: a Term before it is too early, a Term on its failure branch is
	// not the write's failure.
	OrderingWriter
	// SwallowingWriter: it writes on every path that returns normally and
	// drops the write's error: a call to it is an unchecked DLQ write.
	SwallowingWriter
)

// WritesDLQ reports whether the package makes a DLQ write anywhere but in
// test functions: a direct write or a call to a DLQ writer. It looks at
// every call of the package: callers that need it often keep the answer.
func (m *Result) WritesDLQ() bool {
	if !m.mayWrite {
		return false
	}
	found := false
	for _, f := range m.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				return !m.testFuncs[n] && !found
			case *ast.CallExpr:
				if !found && m.IsDLQWrite(n) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}
