package ordering

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// graph is a function's CFG with its Terms and DLQ writes placed in their
// blocks, and its loop back edges, which no walk crosses: a DLQ write in
// the next iteration concerns another message.
type graph struct {
	cfg    *cfg.CFG
	events map[*cfg.Block][]*event // per block, in evaluation order
	all    []*event                // every event, in block then evaluation order
	reach  *dataflow.Reach         // forward edges: no walk crosses a loop's back edge
	tags   map[ast.Node]bool       // tags of expression switches
	comms  map[ast.Node]bool       // the comm statements of selects, evaluated before the select branches
}

// newGraph places the events of body on its CFG (the model's, from
// ctrlflow); nil when body has none (a declaration with type errors).
func (c *checker) newGraph(body *ast.BlockStmt) *graph {
	flow := c.m.CFG(body)
	if flow == nil {
		return nil
	}
	g := &graph{
		cfg:    flow,
		events: make(map[*cfg.Block][]*event),
		tags:   make(map[ast.Node]bool),
		comms:  make(map[ast.Node]bool),
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SwitchStmt:
			if n.Tag != nil {
				g.tags[n.Tag] = true
			}
		case *ast.CommClause:
			g.comms[n.Comm] = true
		}
		return true
	})
	for _, b := range g.cfg.Blocks {
		if !b.Live {
			continue
		}
		for i, n := range b.Nodes {
			var evs []*event
			c.scan(n, func(ev *event) { evs = append(evs, ev) })
			// Operands are evaluated before the call that takes them.
			sort.SliceStable(evs, func(i, j int) bool { return evs[i].call.End() < evs[j].call.End() })
			if ret, ok := n.(*ast.ReturnStmt); ok {
				if c.spec.DeferredAcks {
					if d, pending := c.m.Settle().DeferredAckAt(body, ret); pending {
						evs = append(evs, &event{ret: ret, deferred: &d, settle: &contract.SettleCall{
							Settlement: profile.Done, Name: "deferred " + d.Ack.Method, Msg: d.Ack.Recv, Msgs: c.m.Messages().Deps(d.Ack.Recv)}})
					}
				}
				if c.handler != nil && c.isNilReturn(ret) {
					// The caller Acks after the return's operands ran.
					evs = append(evs, &event{ret: ret, settle: &contract.SettleCall{Settlement: profile.Done, Name: "return nil", Msgs: c.handler.Msgs}})
				}
			}
			for _, ev := range evs {
				ev.block, ev.node, ev.index = b, i, len(g.events[b])
				switch {
				case ev.write == nil || ev.mode != plain:
				case ev.write.Swallows:
					ev.handling = discarded // the writer drops the write's error itself
				case ev.write.Checked:
					ev.handling, ev.errVar = c.handlingOf(b, i, ev)
				}
				g.events[b] = append(g.events[b], ev)
				g.all = append(g.all, ev)
			}
		}
	}
	g.reach = dataflow.NewReach(flow)
	return g
}

// isNilReturn reports whether ret returns a nil error.
func (c *checker) isNilReturn(ret *ast.ReturnStmt) bool {
	for _, r := range c.m.Handlers().NilReturns(&ast.BlockStmt{List: []ast.Stmt{ret}}) {
		if r == ret {
			return true
		}
	}
	return false
}

// after calls f for each event reachable after ev without crossing a
// back edge, each block once, until f returns false.
func (g *graph) after(ev *event, f func(*event) bool) {
	dataflow.EventsAfter(g.reach, g.events, ev.block, ev.index, f)
}

// checkBefore reports a Term from which a DLQ write of the same
// message is reachable.
func (c *checker) checkBefore(g *graph, t *event) {
	g.after(t, func(e *event) bool {
		if e.write != nil && pairs(t.settle, e.write) {
			k := Before
			if e.mode == deferred {
				k = DeferredAfter
			}
			c.record(k, t, e)
			return false
		}
		return true
	})
}

// checkAsyncWrite reports the Terms reachable after a deferred DLQ write
// (which runs at exit, after them) or a DLQ write started with go (which
// is not ordered before them).
func (c *checker) checkAsyncWrite(g *graph, w *event) {
	k := DeferredAfter
	if w.mode == goroutine {
		k = Spawned
	}
	g.after(w, func(e *event) bool {
		// A handler's caller Acks after the deferred functions ran; a
		// deferred Ack runs after a deferred write only when it was
		// deferred before it (deferred calls run last in, first out).
		deferredBeforeCaller := k == DeferredAfter && e.ret != nil &&
			(e.deferred == nil || e.deferred.Stmt.Pos() < w.call.Pos())
		if e.settle != nil && e.mode == plain && pairs(e.settle, w.write) && !deferredBeforeCaller {
			c.record(k, e, w)
		}
		return true
	})
}

// ustate is the state of the walk after a DLQ write: whether the path is
// on the write's failure branch, and the variable still holding its error
// (nil once it is discarded or overwritten).
type ustate struct {
	failure     bool
	unconfirmed bool // walking from an unconfirmed write: whatever its error says, it is not known to have stored
	errVar      *types.Var
}

// checkUnchecked reports the Terms that follow a DLQ write whose error is
// discarded or not checked on the way, or that its failure branch reaches;
// with unconfirmed, those that follow an unconfirmed write (a sink that
// returns no error, a buffered or async publish), on any path from it
// that nothing confirming it (an await of an async publish) crosses. A
// Term found both ways keeps the lower kind: an unchecked or failure-path
// finding names the nearer defect.
func (c *checker) checkUnchecked(g *graph, w *event, unconfirmed bool) {
	u := &uncheckedWalk{c: c, g: g, w: w, seen: make(map[walkKey]bool)}
	switch {
	case unconfirmed:
		u.walk(w.block, w.node, w.index+1, ustate{unconfirmed: true})
	case w.handling == discarded:
		u.walk(w.block, w.node, w.index+1, ustate{})
	case w.handling == assigned:
		u.walk(w.block, w.node, w.index+1, ustate{errVar: w.errVar})
	case w.handling == tested:
		cond := w.block.Nodes[w.node].(ast.Expr)
		u.branch(w.block, cond, func(e ast.Expr) bool { return ast.Unparen(e) == w.call }, ustate{})
	}
}

// uncheckedWalk is checkUnchecked's walk from the DLQ write w over g, each
// block visited once per state.
type uncheckedWalk struct {
	c    *checker
	g    *graph
	w    *event
	seen map[walkKey]bool
}

type walkKey struct {
	b  *cfg.Block
	st ustate
}

// branch follows the successors of b, which tests cond: the sides where
// the write's error (is) may be non-nil continue on its failure branch.
func (u *uncheckedWalk) branch(b *cfg.Block, cond ast.Expr, is func(ast.Expr) bool, st ustate) {
	for i, s := range b.Succs {
		if u.g.reach.IsBack(b, s) {
			continue
		}
		switch goast.NilTest(cond, is, i == 0) {
		case goast.Succeeded:
			continue // checked; or, on a failure path, infeasible
		case goast.Unknown:
			if !st.failure {
				continue // checked in a way we cannot follow: not judged
			}
		}
		u.walk(s, 0, 0, ustate{failure: true, errVar: st.errVar})
	}
}

// walk follows the path from node (and its event from) of b.
func (u *uncheckedWalk) walk(b *cfg.Block, node, from int, st ustate) {
	if node == 0 && from == 0 {
		k := walkKey{b, st}
		if u.seen[k] {
			return
		}
		u.seen[k] = true
	}
	async := st.unconfirmed && u.w.write.Async
	if cc, ok := b.Stmt.(*ast.CommClause); ok && async && b.Kind == cfg.KindSelectCaseBody && u.c.awaits(cc.Comm) {
		return // the case that received the future's outcome
	}
	evs := u.g.events[b]
	for j := node; j < len(b.Nodes); j++ {
		n := b.Nodes[j]
		if async && (b != u.w.block || j != u.w.node) && !u.g.comms[n] && u.c.awaits(n) {
			return // the async publish's future is awaited: confirmed (or its failure handled)
		}
		if u.settles(evs, &from, j, st) {
			return
		}
		var stop bool
		if st, stop = u.step(b, j, st); stop {
			return
		}
	}
	for _, s := range u.g.reach.Succs(b) {
		u.walk(s, 0, 0, st)
	}
}

// settles records the first settlement of the write's message among the
// events of node j (from *from on), and reports whether the path ends
// there: at it, or at a helper given the write's error, which decides.
func (u *uncheckedWalk) settles(evs []*event, from *int, j int, st ustate) bool {
	for ; *from < len(evs) && evs[*from].node == j; *from++ {
		e := evs[*from]
		if e.settle == nil || e.mode != plain || !pairs(e.settle, u.w.write) {
			continue
		}
		if st.errVar != nil && e.ret == nil && mentions(e.syntax(), st.errVar, u.c.pass.TypesInfo) {
			return true // the error goes to the Term's helper, which decides
		}
		k := UncheckedWrite
		switch {
		case st.failure:
			k = FailurePath
		case st.unconfirmed:
			k = Unconfirmed
		}
		u.c.record(k, e, u.w)
		return true
	}
	return false
}

// step follows the write's error variable through node j of b: stop when
// the path is decided there (the error tested, switched on, collected or
// passed on), and the state after the node.
func (u *uncheckedWalk) step(b *cfg.Block, j int, st ustate) (ustate, bool) {
	info := u.c.pass.TypesInfo
	n := b.Nodes[j]
	if st.errVar == nil || (b == u.w.block && j == u.w.node) {
		return st, false
	}
	if u.g.tags[n] && mentions(n, st.errVar, info) {
		return st, true // switch err { ... }: not judged
	}
	if cond, ok := n.(ast.Expr); ok && j == len(b.Nodes)-1 && len(b.Succs) == 2 {
		if !mentions(cond, st.errVar, info) {
			return st, false
		}
		v := st.errVar
		u.branch(b, cond, func(e ast.Expr) bool { return goast.IsVar(e, v, info) }, st)
		return st, true
	}
	if assigns(n, st.errVar, info) {
		st.errVar = nil // overwritten: the write's error is lost
		return st, false
	}
	if !st.failure && mentions(n, st.errVar, info) && !onlyLogged(n, st.errVar, info) {
		return st, true // collected or passed on: not judged
	}
	return st, false
}

// handlingOf says what the statement at b.Nodes[i] does with the error of
// the DLQ write ev.
func (c *checker) handlingOf(b *cfg.Block, i int, ev *event) (handling, *types.Var) {
	call, w := ev.call, ev.write
	info := c.pass.TypesInfo
	switch n := b.Nodes[i].(type) {
	case *ast.ExprStmt:
		if ast.Unparen(n.X) == call {
			return discarded, nil
		}
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			break
		}
		var lhs ast.Expr
		switch {
		case len(n.Rhs) == 1 && ast.Unparen(n.Rhs[0]) == call && len(n.Lhs) == w.Results:
			lhs = n.Lhs[w.ErrIndex]
		case len(n.Lhs) == len(n.Rhs) && w.Results == 1:
			for k, r := range n.Rhs {
				if ast.Unparen(r) == call {
					lhs = n.Lhs[k]
				}
			}
		}
		return lhsHandling(lhs, info)
	case *ast.ValueSpec:
		if len(n.Values) == 1 && ast.Unparen(n.Values[0]) == call && len(n.Names) == w.Results {
			return lhsHandling(n.Names[w.ErrIndex], info)
		}
	case ast.Expr:
		if i == len(b.Nodes)-1 && len(b.Succs) == 2 {
			is := func(e ast.Expr) bool { return ast.Unparen(e) == call }
			if goast.NilTest(n, is, true) != goast.Unknown || goast.NilTest(n, is, false) != goast.Unknown {
				return tested, nil
			}
		}
	}
	return handledElsewhere, nil
}

func lhsHandling(lhs ast.Expr, info *types.Info) (handling, *types.Var) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return handledElsewhere, nil // stored in a field: not followed
	}
	if id.Name == "_" {
		return discarded, nil
	}
	v, _ := info.Defs[id].(*types.Var)
	if v == nil {
		v, _ = info.Uses[id].(*types.Var)
	}
	if v == nil || !gotypes.IsError(v.Type()) {
		return handledElsewhere, nil
	}
	return assigned, v
}

// mentions reports whether n uses v.
func mentions(n ast.Node, v *types.Var, info *types.Info) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// assigns reports whether the statement n assigns v.
func assigns(n ast.Node, v *types.Var, info *types.Info) bool {
	as, ok := n.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && (info.Uses[id] == v || info.Defs[id] == v) {
			return true
		}
	}
	return false
}

// onlyLogged reports whether every use of v in n is inside the arguments
// of a logging call (log, slog, fmt, and logger methods such as Error or
// Warnf): recording an error is not checking it.
func onlyLogged(n ast.Node, v *types.Var, info *types.Info) bool {
	ok := true
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if isLogging(n, info) {
				return false // uses inside are fine
			}
		case *ast.Ident:
			if info.Uses[n] == v {
				ok = false
			}
		}
		return true
	}
	ast.Inspect(n, walk)
	return ok
}

func isLogging(call *ast.CallExpr, info *types.Info) bool {
	fn := gotypes.StaticCallee(info, call)
	if fn == nil {
		return false
	}
	if sig, _ := fn.Type().(*types.Signature); sig != nil && sig.Recv() == nil {
		return fn.Pkg() != nil && loggingPkgs[fn.Pkg().Path()]
	}
	return gotypes.IsLoggingMethod(fn.Name())
}
