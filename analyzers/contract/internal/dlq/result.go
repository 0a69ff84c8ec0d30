package dlq

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
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
	// Funcs are the functions dlq-funcs names.
	Funcs FuncList
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
	Sites     []syntax.Site          // the calls of the package, test functions left out
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
	testFuncs map[*ast.FuncDecl]bool
	writes    bool // WritesDLQ

	writers map[*types.Func]bool // functions of the package that write a DLQ on some path
	// writerNames are the writers' names, for the cheap test of
	// MayNameDLQWrite.
	writerNames map[string]bool
	kinds       map[*types.Func]WriterKind // what their errors tell (kinds.go)
	nonWriters  map[*types.Func]bool       // named like writers, they settle without writing (named.go)
	lits        map[*ast.FuncLit]bool      // function literals whose body writes a DLQ
	frozen      bool                       // set when Build returns: lits holds every literal
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
	// Unconfirmed, when set, says why the caller cannot know that the
	// write stored the evidence (CONTRACT.md version 3: a writer that
	// returns no error, a publish that only buffers, an async publish whose
	// future is not awaited), and ConfirmFix how to know: a Term or an Ack
	// after it, with nothing that confirms it in between, loses the
	// evidence like one after a discarded error.
	Unconfirmed, ConfirmFix string
	// Async is set for an async publish: an await of the library (a
	// future's Ok or Err, PublishAsyncComplete) between the write and a
	// settlement confirms it.
	Async bool
}

// HasError reports whether the write returns an error that can be checked.
func (w DLQWrite) HasError() bool { return w.ErrIndex >= 0 }

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

// isAck reports whether call is an ack call: never a DLQ write.
func (m *Result) isAck(call *ast.CallExpr) bool {
	_, ok := m.msgs.AsAckCall(call)
	return ok
}

func sig(fn *types.Func) *types.Signature {
	s, _ := fn.Type().(*types.Signature)
	return s
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
	// SyncWriter: it returns no error, but writes on every path that
	// returns normally and panics or exits when a write fails: a call
	// that returns has stored the evidence (CONTRACT.md version 3).
	SyncWriter
)

// String says what a writer's error tells, for its fact.
func (k WriterKind) String() string {
	return [...]string{"writes DLQ", "writes DLQ (its error is not the write's)",
		"writes DLQ (always, and drops its error)", "writes DLQ (always, and panics when it fails)"}[k]
}
