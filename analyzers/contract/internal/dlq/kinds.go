package dlq

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/cfgs"
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
	if m.cfg.Funcs.Names(fn) {
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
		if HasDirective(d) || m.cfg.Funcs.Names(fn) {
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
			unguarded, guarded := m.withoutNilGuards(d)
			switch {
			case guarded && m.alwaysWrites(unguarded):
				k = SwallowingWriter // its nil guard drops the write and reports nothing
			case m.returnsWriteError(d.Body, sig(fn).Results()):
				k = CheckedWriter
			case m.alwaysWrites(d.Body) && m.panicsOnFailure(d.Body):
				k = SyncWriter
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
	fn := gotypes.StaticCallee(m.info, call)
	m.unconfirmed(&w, fn, fn != nil && m.IsDLQWriter(fn) && m.writerKind(fn) == SyncWriter)
	return w, true
}

// panicsOnFailure reports whether every DLQ write body makes is a
// confirmed, checked write tested at once (if err := w(); err != nil, or
// if w() != nil) by a branch that ends in a panic or an exit: a
// SyncWriter's body, whose normal return means the write stored the
// evidence. A blocking retry loop is not recognized: such a writer stays
// unconfirmed (or swallowing).
func (m *Result) panicsOnFailure(body *ast.BlockStmt) bool {
	ok, tested := true, make(map[*ast.CallExpr]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if call := testedCall(n); call != nil && endsInExit(m.info, n.Body) {
				tested[call] = true
			}
		case *ast.CallExpr:
			if w, isWrite := m.AsDLQWrite(n); isWrite {
				ok = ok && tested[n] && w.Checked && w.Unconfirmed == ""
			}
		}
		return ok
	})
	return ok
}

// testedCall returns the call whose error an if statement tests for nil at
// once: if err := call(); err != nil, if _, err := call(); err != nil, if
// call() != nil.
func testedCall(s *ast.IfStmt) *ast.CallExpr {
	cond, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return nil
	}
	if call, ok := ast.Unparen(cond.X).(*ast.CallExpr); ok {
		return call
	}
	as, ok := s.Init.(*ast.AssignStmt)
	x, isIdent := ast.Unparen(cond.X).(*ast.Ident)
	if !ok || !isIdent || len(as.Rhs) != 1 {
		return nil
	}
	if last, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident); !ok || last.Name != x.Name {
		return nil
	}
	call, _ := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	return call
}

// endsInExit reports whether a block's last statement is a call of panic
// or of a function known never to return (os.Exit, log.Fatal).
func endsInExit(info *types.Info, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	st, ok := b.List[len(b.List)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(st.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := info.Uses[id].(*types.Builtin); builtin && id.Name == "panic" {
			return true
		}
	}
	return cfgs.Intrinsic(gotypes.StaticCallee(info, call))
}
