package messages

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Messages that nothing redelivers (CONTRACT.md version 3): messages of a
// core NATS subscription, an ordered consumer, an AckNone consumer or an
// ephemeral consumer read once, where the package shows the origin (the
// same function, or a handler of the package registered on such a
// subscription). The sources are the profiles' Redelivery data. The
// analysis follows, in source order and to a fixpoint, the values those
// sources return (subscriptions, consumers, batches, iterators, channels)
// through assignments, method calls on them, receives and range loops to
// the message variables they yield, and marks the message parameters of
// the handlers registered on them.

// maxRedeliveryRounds bounds the fixpoint: each round follows one more
// step of a chain declared out of source order.
const maxRedeliveryRounds = 8

// redelivery is the state of one package's analysis.
type redelivery struct {
	m     *Table
	rs    []*profile.Redelivery
	decls map[*types.Func]*ast.FuncDecl
	vars  map[*types.Var]bool // values nothing redelivers, and what yields them
	// reads are the methods called on each candidate ephemeral consumer
	// (created without a durable name), to tell one read from a loop.
	reads   map[*types.Var][]string
	changed bool
	callees map[*ast.CallExpr]*types.Func // memo of StaticCallee: every round asks again
	// methods are the names of the methods the profiles' lists hold: in
	// rejects every other callee by its name.
	methods map[string]bool
	// stateful is set when a visit read what the rounds change, the
	// values marked: a node whose visit did not answers the same in every
	// round, and is visited once. (The reads of ephemeral consumers are
	// the same in every round, and what readOnce marks stays marked: the
	// first round records them all.)
	stateful bool
}

// callee returns call's static callee, computed once per call.
func (r *redelivery) callee(call *ast.CallExpr) *types.Func {
	fn, ok := r.callees[call]
	if !ok {
		fn = gotypes.StaticCallee(r.m.info, call)
		r.callees[call] = fn
	}
	return fn
}

// newRedelivery returns the state of the analysis of m's package, nil
// when no profile says where messages nothing redelivers come from.
func newRedelivery(m *Table) *redelivery {
	r := &redelivery{m: m, decls: make(map[*types.Func]*ast.FuncDecl), vars: make(map[*types.Var]bool), callees: make(map[*ast.CallExpr]*types.Func)}
	r.methods = make(map[string]bool)
	for _, p := range m.profiles {
		if rd := p.Redelivery; rd != nil {
			r.rs = append(r.rs, rd)
			for _, m := range rd.Methods() {
				r.methods[m.Name] = true
			}
		}
	}
	if len(r.rs) == 0 || m.info == nil {
		return nil
	}
	return r
}

// seeded reports whether one of calls calls a method of the profiles'
// redelivery lists: every message that nothing redelivers is found from
// such a call (a source, a creation, a subscription with a handler or a
// channel), so that without one there is nothing to follow.
func (r *redelivery) seeded(calls []syntax.Site) bool {
	return slices.ContainsFunc(calls, func(s syntax.Site) bool {
		call, ok := s.Node.(*ast.CallExpr)
		if !ok {
			return false
		}
		if name, _ := goast.CalledName(call.Fun); !r.methods[name] {
			return false
		}
		return r.in(r.callee(call), (*profile.Redelivery).Methods)
	})
}

// findUnredelivered returns the variables of files whose messages nothing
// redelivers, messages and their sources both. Test functions are out of
// scope (a test's core NATS subscription says nothing of how production
// registers a handler). flow is what flowNodes collected, the part
// that can mark something: the fixpoint's rounds go over it, not the
// files.
func (r *redelivery) findUnredelivered(files []*ast.File, testFuncs map[*ast.FuncDecl]bool, flow []ast.Node) map[*types.Var]bool {
	m := r.m
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !testFuncs[fd] {
				if fn, ok := m.info.Defs[fd.Name].(*types.Func); ok {
					r.decls[fn] = fd
				}
			}
		}
	}
	for round := 0; round < maxRedeliveryRounds; round++ {
		r.changed = false
		r.reads = make(map[*types.Var][]string)
		next := flow[:0:0]
		for _, n := range flow {
			r.stateful = false
			r.visit(n)
			if r.stateful {
				next = append(next, n)
			}
		}
		flow = next
		r.readOnce()
		if !r.changed {
			break
		}
	}
	return r.vars
}

// redeliveryCallNames are the names of the calls visit must see: the
// subscriptions that hand on messages nothing redelivers (handlers,
// channels), and the reads and consumes that tell a one-pass reader from
// one that goes on, in profiles' redelivery data.
func redeliveryCallNames(profiles []*profile.Profile) map[string]bool {
	names := map[string]bool{"Messages": true}
	for _, p := range profiles {
		rd := p.Redelivery
		if rd == nil {
			continue
		}
		for _, list := range [][]profile.Method{rd.Callbacks, rd.Channels, rd.Optioned} {
			for _, m := range list {
				names[m.Name] = true
			}
		}
		for _, list := range [][]string{rd.Reads, rd.Handlers} {
			for _, n := range list {
				names[n] = true
			}
		}
	}
	return names
}

func (r *redelivery) mark(v *types.Var) {
	if v != nil && !r.vars[v] {
		r.vars[v] = true
		r.changed = true
	}
}

// visit follows one node.
func (r *redelivery) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.CallExpr:
		r.call(n)
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			break
		}
		if len(n.Lhs) == len(n.Rhs) {
			for i := range n.Lhs {
				r.assign(n.Lhs[i], n.Rhs[i])
			}
		} else if len(n.Rhs) == 1 && len(n.Lhs) > 0 {
			r.assign(n.Lhs[0], n.Rhs[0]) // sub, err := nc.SubscribeSync(subj)
		}
	case *ast.ValueSpec:
		for i, name := range n.Names {
			if i < len(n.Values) {
				r.assign(name, n.Values[i])
			}
		}
	case *ast.RangeStmt:
		if r.yields(n.X) {
			r.mark(r.varOf(n.Key))
			r.mark(r.varOf(n.Value))
		}
	}
	return true
}

// assign marks lhs when rhs yields what nothing redelivers, and records
// an ephemeral consumer created into lhs.
func (r *redelivery) assign(lhs, rhs ast.Expr) {
	// The right side first: most assignments of a package yield nothing,
	// and then the left side needs no lookup.
	if r.yields(rhs) {
		r.mark(r.varOf(lhs))
		return
	}
	if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && r.ephemeral(call) {
		if v := r.varOf(lhs); v != nil && v.Parent() != r.m.pkg.Scope() {
			if _, seen := r.reads[v]; !seen {
				r.reads[v] = []string{}
			}
		}
	}
}

// yields reports whether e is (or reads from) a source whose messages
// nothing redelivers.
func (r *redelivery) yields(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		r.stateful = true
		return len(r.vars) > 0 && r.vars[r.varOf(e)]
	case *ast.UnaryExpr:
		return e.Op == token.ARROW && r.yields(e.X) // <-ch
	case *ast.CallExpr:
		fn := r.callee(e)
		if r.in(fn, func(rd *profile.Redelivery) []profile.Method { return rd.Sources }) ||
			r.in(fn, func(rd *profile.Redelivery) []profile.Method { return rd.Optioned }) && r.hasOption(e) ||
			r.in(fn, func(rd *profile.Redelivery) []profile.Method { return rd.Creates }) && r.noAck(e) {
			return true
		}
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && r.m.info.Selections[sel] != nil {
			return r.yields(sel.X) // sub.NextMsg(t), cons.Fetch(n), batch.Messages()
		}
	}
	return false
}

// call marks the handlers and channels a subscription call hands messages
// nothing redelivers, and records the reads of candidate ephemeral
// consumers.
func (r *redelivery) call(call *ast.CallExpr) {
	fn := r.callee(call)
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if isSel && len(r.reads) > 0 {
		if v := r.varOf(sel.X); v != nil {
			if reads, ok := r.reads[v]; ok {
				r.reads[v] = append(reads, sel.Sel.Name)
			}
		}
	}
	optioned := r.in(fn, func(rd *profile.Redelivery) []profile.Method { return rd.Optioned }) && r.hasOption(call)
	handlers := optioned || r.in(fn, func(rd *profile.Redelivery) []profile.Method { return rd.Callbacks }) ||
		isSel && r.yields(sel.X) && slices.ContainsFunc(r.rs, func(rd *profile.Redelivery) bool { return slices.Contains(rd.Handlers, sel.Sel.Name) })
	channels := optioned || r.in(fn, func(rd *profile.Redelivery) []profile.Method { return rd.Channels })
	for _, a := range call.Args {
		t := r.m.info.TypeOf(a)
		if t == nil {
			continue
		}
		switch t.Underlying().(type) {
		case *types.Signature:
			if handlers {
				r.markHandler(a)
			}
		case *types.Chan:
			if channels {
				r.mark(r.varOf(a))
			}
		}
	}
}

// markHandler marks the message parameters of a handler: a function
// literal, or a function or method of the package.
func (r *redelivery) markHandler(h ast.Expr) {
	var ft *ast.FuncType
	switch h := ast.Unparen(h).(type) {
	case *ast.FuncLit:
		ft = h.Type
	case *ast.Ident, *ast.SelectorExpr:
		id, _ := h.(*ast.Ident)
		if sel, ok := h.(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
		if fn, ok := r.m.info.Uses[id].(*types.Func); ok && r.decls[fn] != nil {
			ft = r.decls[fn].Type
		}
	}
	if ft == nil {
		return
	}
	for _, p := range r.m.MessageParams(ft) {
		r.mark(p)
	}
}

// readOnce marks the ephemeral consumers read by exactly one read call
// (a history or replay reader); one also consumed or iterated is a
// reader that goes on, and stays judged.
func (r *redelivery) readOnce() {
	for v, calls := range r.reads {
		n := 0
		for _, name := range calls {
			if slices.ContainsFunc(r.rs, func(rd *profile.Redelivery) bool { return slices.Contains(rd.Reads, name) }) {
				n++
			} else if slices.ContainsFunc(r.rs, func(rd *profile.Redelivery) bool { return slices.Contains(rd.Handlers, name) }) || name == "Messages" {
				n = 2
				break
			}
		}
		if n == 1 {
			r.mark(v)
		}
	}
}

// in reports whether fn is one of the methods list names in some profile.
func (r *redelivery) in(fn *types.Func, list func(*profile.Redelivery) []profile.Method) bool {
	if fn == nil || fn.Pkg() == nil || !r.methods[fn.Name()] {
		return false
	}
	recv := recvName(fn)
	return slices.ContainsFunc(r.rs, func(rd *profile.Redelivery) bool {
		return slices.ContainsFunc(list(rd), func(m profile.Method) bool {
			return m.Path == fn.Pkg().Path() && m.Recv == recv && m.Name == fn.Name()
		})
	})
}

// hasOption reports whether an argument of call is a call of an option
// that makes a subscription's messages unredelivered (nats.AckNone()).
func (r *redelivery) hasOption(call *ast.CallExpr) bool {
	return slices.ContainsFunc(call.Args, func(a ast.Expr) bool {
		c, ok := ast.Unparen(a).(*ast.CallExpr)
		return ok && r.in(r.callee(c), func(rd *profile.Redelivery) []profile.Method { return rd.Options })
	})
}

// noAck reports whether a consumer creation's configuration literal sets
// the no-ack field (AckPolicy: jetstream.AckNonePolicy).
func (r *redelivery) noAck(call *ast.CallExpr) bool {
	return r.configField(call, func(rd *profile.Redelivery, key string, value ast.Expr) bool {
		if rd.NoAck == nil || key != rd.NoAck.Name {
			return false
		}
		id, _ := ast.Unparen(value).(*ast.Ident)
		if sel, ok := ast.Unparen(value).(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
		c, ok := r.m.info.Uses[id].(*types.Const)
		return ok && c.Pkg() != nil && c.Pkg().Path() == rd.NoAck.Value.Path && c.Name() == rd.NoAck.Value.Name
	})
}

// ephemeral reports whether call creates a consumer whose configuration
// literal names it by none of the profile's Named fields.
func (r *redelivery) ephemeral(call *ast.CallExpr) bool {
	if !r.in(r.callee(call), func(rd *profile.Redelivery) []profile.Method { return rd.Creates }) || !r.hasConfigLit(call) {
		return false
	}
	return !r.configField(call, func(rd *profile.Redelivery, key string, value ast.Expr) bool {
		return slices.Contains(rd.Named, key)
	})
}

// hasConfigLit reports whether an argument of call is a composite literal.
func (r *redelivery) hasConfigLit(call *ast.CallExpr) bool {
	return slices.ContainsFunc(call.Args, func(a ast.Expr) bool {
		_, ok := ast.Unparen(a).(*ast.CompositeLit)
		return ok
	})
}

// configField reports whether a keyed field of a composite literal
// argument of call satisfies f for some profile.
func (r *redelivery) configField(call *ast.CallExpr, f func(rd *profile.Redelivery, key string, value ast.Expr) bool) bool {
	for _, a := range call.Args {
		lit, ok := ast.Unparen(a).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, ok := kv.Key.(*ast.Ident)
			if !ok {
				continue
			}
			if slices.ContainsFunc(r.rs, func(rd *profile.Redelivery) bool { return f(rd, key.Name, kv.Value) }) {
				return true
			}
		}
	}
	return false
}

func (r *redelivery) varOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if v, ok := r.m.info.Defs[id].(*types.Var); ok {
		return v
	}
	v, _ := r.m.info.Uses[id].(*types.Var)
	return v
}

// recvName is the name of fn's receiver's named type, "" for a function.
func recvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}
