package dlq

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// A DLQ writer by name that does not write (CONTRACT.md version 3): a
// function named like a DLQ writer that writes nothing anywhere and Terms
// or Acks the message it receives loses the message and its evidence, and
// is no DLQ write at its call sites. "Writes nothing anywhere" must hold
// for certain: no DLQ write, and no call that takes the message or a value
// derived from it other than its ack calls, formatting and logging (a
// database insert of msg.Data() in a function named deadLetter is a write
// the model cannot see). Functions marked //retrylint:dlq or named in
// dlq-funcs are left alone: they are declared to write where inference
// cannot see it.

// recordingPkgs are the packages whose calls format, log or compute: a
// message-derived argument passed to them is not stored anywhere.
var recordingPkgs = []string{"fmt", "log", "log/slog", "errors", "strings", "strconv", "bytes", "time",
	"context", "encoding/json", "encoding/base64", "encoding/hex", "unicode/utf8", "slices", "maps", "sort"}

// NamedNonWriter returns the Terms and Acks of a message parameter that d,
// a function named like a DLQ writer (by the pattern only), makes directly
// when it writes nothing anywhere; nil otherwise.
func (m *Result) NamedNonWriter(d *ast.FuncDecl) []*ast.CallExpr {
	if d.Body == nil || m.testFuncs[d] || !m.isDLQName(d.Name.Name) || startsWithNonWriteVerb(d.Name.Name) || HasDirective(d) {
		return nil
	}
	if fn, _ := m.info.Defs[d.Name].(*types.Func); fn == nil || m.cfg.Funcs.Names(fn) {
		return nil
	}
	params := make(map[types.Object]bool)
	for _, f := range d.Type.Params.List {
		for _, n := range f.Names {
			params[m.info.Defs[n]] = true
		}
	}
	var settles []*ast.CallExpr
	stores := false
	for _, call := range m.callsOf(d.Body) {
		if a, ok := m.msgs.AsAckCall(call); ok {
			if id, isIdent := ast.Unparen(a.Recv).(*ast.Ident); isIdent && params[m.info.Uses[id]] &&
				(a.Settlement == profile.Terminate || a.Settlement == profile.Done) {
				settles = append(settles, call)
			}
			continue
		}
		if m.IsDLQWrite(call) || len(m.msgs.CallDeps(call)) > 0 && !m.records(call) {
			stores = true
			break
		}
	}
	if stores {
		return nil
	}
	return settles
}

// records reports whether call formats, logs or computes (recordingPkgs,
// gotypes.IsLoggingMethod, builtins).
func (m *Result) records(call *ast.CallExpr) bool {
	fn := gotypes.StaticCallee(m.info, call)
	if fn == nil {
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		_, builtin := m.info.Uses[id].(*types.Builtin)
		return ok && builtin // len(msg.Data())
	}
	if fn.Signature().Recv() == nil {
		return fn.Pkg() != nil && slices.Contains(recordingPkgs, fn.Pkg().Path())
	}
	return gotypes.IsLoggingMethod(fn.Name())
}

// inferNonWriters finds the package's named non-writers (before the
// writers: calls of them are not writes).
func (m *Result) inferNonWriters(decls []*ast.FuncDecl) {
	m.nonWriters = make(map[*types.Func]bool)
	for _, d := range decls {
		if len(m.NamedNonWriter(d)) > 0 {
			m.nonWriters[m.info.Defs[d.Name].(*types.Func)] = true
		}
	}
	m.lits = nil
}
