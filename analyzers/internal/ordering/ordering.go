// Package ordering is the engine of the checks that order a settlement of
// a message (a Term, an Ack) against the DLQ write of its evidence:
// termbeforedlq and dlqunchecked. It places the settlements and DLQ writes
// of a function on its CFG (the contract model's) and reports a settlement
// from which a DLQ write is reachable, one that follows a checked DLQ
// write whose error is not checked, or a swallowing writer, and one reached
// from a checked write's failure branch. Reachability never crosses a
// loop's back edge.
package ordering

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Spec describes one ordering check.
type Spec struct {
	// Settle recognizes the settling calls the check orders.
	Settle func(m *contract.Model, call *ast.CallExpr) (contract.SettleCall, bool)
	// Bodies lists the function bodies that hold such a call.
	Bodies func(m *contract.Model) []*ast.BlockStmt
	// Verb names the settlement in messages: "Term", "Ack".
	Verb string
	// Formats are the messages of each kind: %[1]s the settlement, %[2]s
	// the DLQ write, %[3]s the delayed retry method.
	Formats [kinds]string
	// HandlerReturns makes a handler's `return nil` a settlement: its
	// caller Acks the message (for the checks of Acks).
	HandlerReturns bool
	// DeferredAcks makes a return at which a `defer msg.Ack()` runs a
	// settlement of that message.
	DeferredAcks bool
}

// Run runs the check spec describes over one package; *at follows the
// position being checked, for internal errors.
func Run(pass *analysis.Pass, m *contract.Model, at *token.Pos, spec *Spec) {
	c := &checker{pass: pass, m: m, at: at, spec: spec}
	c.run()
}

// loggingPkgs and gotypes.IsLoggingMethod recognize calls that only record
// an error: an error passed to them is still unchecked.
var loggingPkgs = map[string]bool{"log": true, "log/slog": true, "fmt": true}

// Kind is the defect a settlement shows, in the order findings are preferred
// when one Term shows several.
type Kind int

const (
	Before         Kind = iota // a DLQ write is reachable from the settlement
	DeferredAfter              // a deferred DLQ write runs after the settlement
	Spawned                    // a DLQ write started with go is not ordered before the settlement
	FailurePath                // the settlement is reached from a checked DLQ write's failure branch
	UncheckedWrite             // the settlement follows a checked DLQ write whose error is not checked, or a swallowing writer
	Unconfirmed                // the settlement follows an unconfirmed DLQ write (%[4]s why, %[5]s the fix), nothing confirming it in between
	kinds                      // the number of kinds
)

// finding is the defect reported at one Term.
type finding struct {
	kind    Kind
	settle  *event
	write   *event
	handler *contract.Handler // for a handler's return nil
}

type checker struct {
	pass     *analysis.Pass
	spec     *Spec
	handler  *contract.Handler // the body being checked is a handler (with HandlerReturns)
	pretend  *contract.Handler // taken as the handler of a body with none (Candidates)
	m        *contract.Model
	at       *token.Pos // position being checked, for internal errors
	findings map[ast.Node]*finding
}

func (c *checker) run() {
	if c.pass.TypesInfo == nil {
		return
	}
	c.findings = make(map[ast.Node]*finding)
	generated := make(map[*token.File]bool)
	for _, f := range c.pass.Files {
		if ast.IsGenerated(f) {
			generated[c.pass.Fset.File(f.FileStart)] = true
		}
	}
	for _, body := range c.spec.Bodies(c.m) {
		if !generated[c.pass.Fset.File(body.Pos())] {
			*c.at = body.Pos()
			c.checkFunc(body)
		}
	}
	c.report()
}

// checkFunc checks one function body (function literals inside it are
// checked on their own) when it holds both a Term and a DLQ write.
func (c *checker) checkFunc(body *ast.BlockStmt) {
	c.handler = nil
	if c.spec.HandlerReturns {
		c.handler = c.m.Handlers().HandlerOf(body)
		if c.handler == nil {
			c.handler = c.pretend
		}
	}
	settles, writes := c.handler != nil && len(c.m.Handlers().NilReturns(body)) > 0, false
	c.scan(body, func(ev *event) {
		settles = settles || ev.settle != nil
		writes = writes || ev.write != nil
	})
	if !settles || !writes {
		return
	}
	g := c.newGraph(body)
	if g == nil {
		return
	}
	for _, ev := range g.all {
		*c.at = ev.syntax().Pos()
		switch {
		case ev.settle != nil && ev.mode == plain:
			c.checkBefore(g, ev)
		case ev.write != nil && ev.mode != plain:
			c.checkAsyncWrite(g, ev)
		case ev.write != nil:
			c.checkUnchecked(g, ev, false)
			if ev.write.Unconfirmed != "" {
				c.checkUnchecked(g, ev, true)
			}
		}
	}
}

// mode is how a call runs relative to the statements after it.
type mode int

const (
	plain     mode = iota
	deferred       // defer f(): at function exit
	goroutine      // go f(): unordered
)

// event is a settlement or a DLQ write in a function's CFG: a call, or a
// handler's `return nil` (ret set, call nil).
type event struct {
	call     *ast.CallExpr
	ret      *ast.ReturnStmt
	deferred *contract.DeferredAck // the deferred Ack a return event runs
	mode     mode
	settle   *contract.SettleCall
	write    *contract.DLQWrite

	block *cfg.Block
	node  int // index in block.Nodes
	index int // index in the block's events

	// For plain writes that return an error: how the statement handles it.
	handling handling
	errVar   *types.Var // the variable that receives the error
}

// node is the call or return statement the event is.
func (e *event) syntax() ast.Node {
	if e.ret != nil {
		return e.ret
	}
	return e.call
}

// handling is what happens to a DLQ write's error at the write.
type handling int

const (
	handledElsewhere handling = iota // returned, passed on, or unknown: not judged
	discarded                        // _ = w(), or w() as a statement
	assigned                         // err := w(): judged by the checks that follow
	tested                           // if w() != nil: judged by the branch
)

// scan calls f for each Term and DLQ write in n, outside function
// literals (a literal called on the spot is one event at its call).
func (c *checker) scan(n ast.Node, f func(*event)) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			c.scanCall(n.Call, deferred, f)
			for _, a := range n.Call.Args {
				c.scan(a, f)
			}
			return false
		case *ast.GoStmt:
			c.scanCall(n.Call, goroutine, f)
			for _, a := range n.Call.Args {
				c.scan(a, f)
			}
			return false
		case *ast.CallExpr:
			c.scanCall(n, plain, f)
		}
		return true
	})
}

func (c *checker) scanCall(call *ast.CallExpr, md mode, f func(*event)) {
	if t, ok := c.spec.Settle(c.m, call); ok {
		f(&event{call: call, mode: md, settle: &t})
		return
	}
	if w, ok := c.m.DLQ().AsDLQWrite(call); ok {
		f(&event{call: call, mode: md, write: &w})
	}
}

// pairs reports whether a Term and a DLQ write can concern the same
// message: the write takes the Termed message or a value derived from it,
// or no message-derived value at all.
func pairs(t *contract.SettleCall, w *contract.DLQWrite) bool {
	if len(t.Msgs) == 0 || len(w.Msgs) == 0 {
		return true
	}
	for _, v := range w.Msgs {
		for _, u := range t.Msgs {
			if u == v {
				return true
			}
		}
	}
	return false
}

// record keeps the preferred finding for a Term: the lower kind, then the
// earlier write.
func (c *checker) record(k Kind, settle, write *event) {
	old := c.findings[settle.syntax()]
	if old != nil && (old.kind < k || old.kind == k && old.write.call.Pos() <= write.call.Pos()) {
		return
	}
	c.findings[settle.syntax()] = &finding{kind: k, settle: settle, write: write, handler: c.handler}
}

// report reports the findings in position order.
func (c *checker) report() {
	for _, d := range c.diagnostics(func(*finding) bool { return true }) {
		c.m.Report(c.pass, d)
	}
}

// Candidate is what a check would report at a `return nil` of a function
// that could be a handler registered in another package, if its caller
// Acked on nil: the declaring package does not know the caller, so it
// keeps the finding as data (the kind, the return, the DLQ write and the
// message's delayed-retry method) and the registering package renders it
// (Spec.Message).
type Candidate struct {
	Kind   Kind
	Return *ast.ReturnStmt
	Write  *contract.DLQWrite
	Retry  string // the message's delayed-retry method (NakWithDelay)
}

// Candidates returns, for each function of the package that could be a
// handler registered in another package (contract.Model.HandlerCandidates),
// the findings the check would report at its `return nil`s if its caller
// Acked on nil, in source order.
func Candidates(pass *analysis.Pass, m *contract.Model, at *token.Pos, spec *Spec) map[*ast.FuncDecl][]Candidate {
	out := make(map[*ast.FuncDecl][]Candidate)
	if pass.TypesInfo == nil || !spec.HandlerReturns {
		return out
	}
	for _, d := range m.Handlers().HandlerCandidates() {
		c := &checker{pass: pass, m: m, at: at, spec: spec, findings: make(map[ast.Node]*finding)}
		c.pretend = &contract.Handler{Msgs: m.Messages().MessageParams(d.Type)}
		*at = d.Pos()
		c.checkFunc(d.Body)
		for _, f := range c.sorted(func(f *finding) bool { return f.settle.ret != nil && f.settle.deferred == nil }) {
			out[d] = append(out[d], Candidate{Kind: f.kind, Return: f.settle.ret, Write: f.write.write, Retry: m.Messages().DelayedRetry(f.settle.settle.Msg)})
		}
	}
	return out
}

// Message renders a finding of kind with the spec's Formats: subject is
// the settlement ("d.Ack", "returning nil (bus.Subscribe then Acks the
// message)"), write the DLQ write's callee as written ("" for a function
// literal), retry the delayed-retry method; unconfirmed and fix say why an
// Unconfirmed write cannot be known to have succeeded and how to know.
func (s *Spec) Message(kind Kind, subject, write, retry, unconfirmed, fix string) string {
	w := " " + write
	if write == "" {
		w = " in a function literal"
	}
	args := []any{subject, w, retry}
	if kind == Unconfirmed {
		args = append(args, unconfirmed, fix)
	}
	return fmt.Sprintf(s.Formats[kind], args...)
}

// sorted returns the findings keep accepts, in source order.
func (c *checker) sorted(keep func(*finding) bool) []*finding {
	var fs []*finding
	for _, f := range c.findings {
		if keep(f) {
			fs = append(fs, f)
		}
	}
	slices.SortFunc(fs, func(a, b *finding) int {
		return goast.ComparePos(c.pass.Fset, a.settle.syntax().Pos(), b.settle.syntax().Pos())
	})
	return fs
}

// diagnostics builds the diagnostics of the findings keep accepts, in
// source order.
func (c *checker) diagnostics(keep func(*finding) bool) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, f := range c.sorted(keep) {
		t, w := f.settle.settle, f.write.write
		verb := c.spec.Verb
		subject, inner := t.Name, "the "+verb+" inside "+t.Name
		switch {
		case f.settle.deferred != nil:
			subject = "the deferred " + f.settle.deferred.Ack.Method + " (running at this return)"
		case f.settle.ret != nil:
			subject = "returning " + f.handler.Returned() + " (" + f.handler.Caller + " then Acks the message)"
		case t.Helper && t.Name == "":
			subject, inner = "call to a function literal that may "+verb+" the message", "the "+verb+" inside the function literal"
		case t.Helper:
			subject = "call to " + t.Name + " may " + verb + " the message"
		}
		at := f.settle.syntax()
		d := analysis.Diagnostic{
			Pos:     at.Pos(),
			End:     at.End(),
			Message: c.spec.Message(f.kind, subject, w.Name, c.m.Messages().DelayedRetry(t.Msg), w.Unconfirmed, w.ConfirmFix),
			Related: []analysis.RelatedInformation{{
				Pos: w.Call.Pos(), End: w.Call.End(), Message: "the DLQ write",
			}},
		}
		if t.Helper && t.Inner.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{
				Pos: t.Inner, Message: inner,
			})
		}
		if dq := f.settle.deferred; dq != nil {
			d.Related = append(d.Related, analysis.RelatedInformation{
				Pos: dq.Stmt.Pos(), End: dq.Stmt.End(), Message: "the deferred " + dq.Ack.Method,
			})
		} else if f.settle.ret != nil && f.handler != nil {
			d.Related = append(d.Related, f.handler.Related()...)
		}
		out = append(out, d)
	}
	return out
}

// awaits reports whether n waits for an async publish's outcome (a
// future's Ok or Err, PublishAsyncComplete), outside function literals.
func (c *checker) awaits(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && c.m.Messages().IsAwait(gotypes.StaticCallee(c.pass.TypesInfo, call)) {
			found = true
		}
		_, lit := n.(*ast.FuncLit)
		return !found && !lit
	})
	return found
}
