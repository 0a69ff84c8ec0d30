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
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
)

// Build infers the package's DLQ writers (when the gate lets a write be
// found), then which function literals write.
func Build(in Inputs) *Result {
	m := &Result{info: in.Info, pkg: in.Pkg, cfg: in.Config, names: in.Names, mayWrite: in.MayWrite,
		imported: in.Imported, msgs: in.Msgs, defs: in.Defs, callsOf: in.CallsOf, testFuncs: in.TestFuncs}
	if m.mayWrite {
		m.inferNonWriters(in.Decls)
		m.inferDLQWriters(in.Decls)
		m.lits = nil
		for _, lit := range in.Lits {
			m.FuncLitWritesDLQ(lit)
		}
	}
	m.frozen = true
	m.writes = m.mayWrite && slices.ContainsFunc(in.Sites, func(s syntax.Site) bool {
		call, ok := s.Node.(*ast.CallExpr)
		return ok && m.IsDLQWrite(call)
	})
	return m
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

// WritesDLQ reports whether the package makes a DLQ write anywhere but in
// test functions: a direct write or a call to a DLQ writer.
func (m *Result) WritesDLQ() bool { return m.writes }
