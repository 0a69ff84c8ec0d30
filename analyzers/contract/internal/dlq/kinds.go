package dlq

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/internal/printf"
)

// The write's outcome (CONTRACT.md version 2): a DLQ write's error tells
// whether the evidence was stored only if it may hold the write's own
// error. Direct writes and named or configured writers are checked writes;
// an inferred writer is one when some return of it may carry the error of
// a checked write it makes, a swallowing writer when it writes on every
// path that returns normally and drops that error, and otherwise a writer
// for ordering only.

// writeOutcome says whether a DLQ write call's error is the write's
// outcome, and whether the call always writes and drops that error.
func (m *Result) writeOutcome(call *ast.CallExpr, hasError bool) (checked, swallows bool) {
	fn := gotypes.StaticCallee(m.info, call)
	writer := fn != nil && m.IsDLQWriter(fn)
	if writer && m.writerKind(fn) == SwallowingWriter {
		return false, true // whatever its name says, it drops the write's error
	}
	if !writer || m.directWrite(call, fn) {
		return hasError, false
	}
	switch m.writerKind(fn) {
	case CheckedWriter:
		return hasError, false
	case SwallowingWriter:
		return false, true
	}
	return false, false
}

// writerKind returns what fn's error tells of the DLQ write it makes.
func (m *Result) writerKind(fn *types.Func) WriterKind {
	fn = fn.Origin()
	if m.cfg.Configured(fn) {
		return CheckedWriter
	}
	if fn.Pkg() == m.pkg {
		return m.kinds[fn]
	}
	return m.imported.Writers[fn]
}

// directWrite reports whether a call of fn writes by what the call itself
// shows: fn's name, its receiver's, a publish subject, a destination
// argument.
func (m *Result) directWrite(call *ast.CallExpr, fn *types.Func) bool {
	name := fn.Name()
	switch {
	case m.isDLQName(name) && !startsWithNonWriteVerb(name):
		return true
	case m.msgs.IsPublish(name) && m.publishesToDLQ(fn, call):
		return true
	case sig(fn) != nil && sig(fn).Recv() != nil && m.dlqReceiverNamed(call) && m.dlqReceiver(fn, call):
		return true
	}
	return m.sendsToDLQArg(call, fn)
}

// sendVerbs are the words that make a call with a dead-letter destination
// argument a write; excludedFirstWords configure, build or describe.
var (
	sendVerbs = []string{"send", "publish", "post", "put", "write", "emit", "deliver", "dispatch",
		"forward", "enqueue", "push", "execute", "do"}
	excludedFirstWords = []string{"new", "parse", "build", "make", "with", "format", "marshal", "encode", "validate"}
	excludedPackages   = []string{"fmt", "errors", "log", "log/slog", "strings", "strconv", "net/url"}
)

// sendsToDLQArg reports whether a call sends to a dead-letter destination
// passed as an argument (d.SendEvent(ctx, ev, *h.deadLetterSink),
// send(ctx, dlqURL, body)): its name holds a send verb as a mixedCaps word
// and does not start with a building verb, it is not in a formatting or
// logging package, and an argument is a variable, field, or dereference of
// one named like a DLQ. fn is nil for a call of a func value.
func (m *Result) sendsToDLQArg(call *ast.CallExpr, fn *types.Func) bool {
	var name string
	if fn != nil {
		if fn.Pkg() != nil && slices.Contains(excludedPackages, fn.Pkg().Path()) {
			return false
		}
		name = fn.Name()
	} else {
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.SelectorExpr:
			name = f.Sel.Name
		}
	}
	if !slices.ContainsFunc(call.Args, m.isDLQDestination) {
		return false // the common case, decided by map lookups
	}
	words := mixedCapsWords(name)
	return len(words) > 0 && !slices.Contains(excludedFirstWords, words[0]) &&
		slices.ContainsFunc(words, func(w string) bool { return slices.Contains(sendVerbs, w) })
}

// isDLQDestination reports whether e is a variable, field, or dereference
// of one, named like a DLQ.
func (m *Result) isDLQDestination(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return m.isDLQDestination(e.X)
	case *ast.Ident:
		_, isVar := m.info.Uses[e].(*types.Var)
		return isVar && m.isDLQName(e.Name)
	case *ast.SelectorExpr:
		if s := m.info.Selections[e]; s != nil {
			return s.Kind() == types.FieldVal && m.isDLQName(e.Sel.Name)
		}
		_, isVar := m.info.Uses[e.Sel].(*types.Var) // pkg.DeadLetterSubject
		return isVar && m.isDLQName(e.Sel.Name)
	}
	return false
}

// mixedCapsWords splits a Go name into its lower-cased words:
// "SendEvent" gives send, event; "executeRequest" execute, request;
// "sendToDLQ" send, to, dlq.
func mixedCapsWords(name string) []string {
	var words []string
	runes := []rune(name)
	start := 0
	for i := 1; i <= len(runes); i++ {
		if i < len(runes) && !boundary(runes, i) {
			continue
		}
		if w := strings.Trim(string(runes[start:i]), "_"); w != "" {
			words = append(words, strings.ToLower(w))
		}
		start = i
	}
	return words
}

// boundary reports whether a new word starts at runes[i]: an upper-case
// letter after a lower-case one or a digit, the last upper-case letter of
// an acronym followed by a lower-case one (HTTPServer: Server), or an
// underscore.
func boundary(runes []rune, i int) bool {
	r, prev := runes[i], runes[i-1]
	switch {
	case r == '_' || prev == '_':
		return true
	case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
		return true
	case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
		return true
	}
	return false
}

// inferWriterKinds decides, to a fixpoint, what the errors of the
// package's DLQ writers tell: a kind can only grow (ordering, then
// swallowing or checked) as the kinds of the writers they call are known.
func (m *Result) inferWriterKinds(decls []*ast.FuncDecl) {
	m.kinds = make(map[*types.Func]WriterKind)
	var writers []*ast.FuncDecl
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || !m.writers[fn] {
			continue
		}
		if HasDirective(d) || m.cfg.Configured(fn) {
			m.kinds[fn] = CheckedWriter
			continue
		}
		m.kinds[fn] = OrderingWriter
		writers = append(writers, d)
	}
	for round := 0; round < defs.MaxDepth; round++ {
		changed := false
		for _, d := range writers {
			fn := m.info.Defs[d.Name].(*types.Func)
			k := OrderingWriter
			switch {
			case m.returnsWriteError(d.Body, sig(fn).Results()):
				k = CheckedWriter
			case m.alwaysWrites(d.Body):
				k = SwallowingWriter
			}
			if k != m.kinds[fn] {
				m.kinds[fn] = k
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// returnsWriteError reports whether some return of body may carry the
// error of a checked DLQ write the body makes.
func (m *Result) returnsWriteError(body *ast.BlockStmt, results *types.Tuple) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case len(n.Results) == 0 && results != nil:
				for i := 0; i < results.Len(); i++ {
					if r := results.At(i); r.Name() != "" && gotypes.IsError(r.Type()) && m.varHoldsWriteError(r, n.Pos(), 0) {
						found = true
					}
				}
			case len(n.Results) == 1 && results != nil && results.Len() > 1:
				if call, ok := ast.Unparen(n.Results[0]).(*ast.CallExpr); ok {
					w, ok := m.AsDLQWrite(call)
					found = ok && w.Checked
				}
			default:
				for _, r := range n.Results {
					if tv, ok := m.info.Types[r]; ok && gotypes.IsError(tv.Type) && m.holdsWriteError(r, 0) {
						found = true
					}
				}
			}
			return false
		}
		return true
	})
	return found
}

// holdsWriteError reports whether an error expression may hold the error
// of a checked DLQ write: the write itself, a variable it was assigned
// to, or either wrapped with %w or errors.Join.
func (m *Result) holdsWriteError(e ast.Expr, depth int) bool {
	if depth > defs.MaxDepth {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn := gotypes.StaticCallee(m.info, e)
		switch {
		case gotypes.IsPkgFunc(fn, "fmt", "Errorf"):
			return slices.ContainsFunc(printf.WrappedOperands(m.info, e), func(x ast.Expr) bool { return m.holdsWriteError(x, depth+1) })
		case gotypes.IsPkgFunc(fn, "errors", "Join"):
			return slices.ContainsFunc(e.Args, func(x ast.Expr) bool { return m.holdsWriteError(x, depth+1) })
		}
		w, ok := m.AsDLQWrite(e)
		return ok && w.Checked
	case *ast.Ident:
		v, ok := m.info.Uses[e].(*types.Var)
		return ok && m.varHoldsWriteError(v, e.Pos(), depth)
	}
	return false
}

func (m *Result) varHoldsWriteError(v *types.Var, at token.Pos, depth int) bool {
	for _, a := range m.defs().Reaching(v, at) {
		if a.RHS == nil {
			continue
		}
		if a.Index >= 0 {
			call, ok := ast.Unparen(a.RHS).(*ast.CallExpr)
			if !ok {
				continue
			}
			if w, ok := m.AsDLQWrite(call); ok && w.Checked && w.ErrIndex == a.Index {
				return true
			}
			continue
		}
		if m.holdsWriteError(a.RHS, depth+1) {
			return true
		}
	}
	return false
}

// alwaysWrites reports whether body makes a checked or swallowing DLQ
// write on every path that returns normally (OnEveryPath).
func (m *Result) alwaysWrites(body *ast.BlockStmt) bool {
	found := false
	goast.OnEveryPath(body, func(n ast.Node) bool {
		found = m.writesHere(n)
		return !found
	})
	return found
}

// writesHere reports whether n evaluates a checked or swallowing DLQ write.
func (m *Result) writesHere(n ast.Node) bool {
	found := false
	goast.InspectCalls(n, func(call *ast.CallExpr) bool {
		if w, ok := m.AsDLQWrite(call); ok && (w.Checked || w.Swallows) {
			found = true
		}
		return !found
	})
	return found
}
