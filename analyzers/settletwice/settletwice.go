package settletwice

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Name is the analyzer's name.
const Name = "settletwice"

// Analyzer is settletwice on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns settletwice built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			c := &checker{pass: pass, m: m, at: at}
			c.run()
		},
	})
}

// verbs name the settlements in messages, after the contract's vocabulary.
var verbs = map[profile.Settlement]string{
	profile.RetryNow: "Nak", profile.RetryLater: "NakWithDelay", profile.Terminate: "Term",
}

type checker struct {
	pass *analysis.Pass
	m    *contract.Model
	at   *token.Pos // position being checked, for internal errors
}

// event is a settlement of a message in a function's CFG: an Ack (done
// for certain) or a later settlement that contradicts it.
type event struct {
	s     contract.SettleCall
	block *cfg.Block
	node  int // index in block.Nodes
	index int // index in the block's events
	// ret is set for a handler's return of an error to a caller that
	// settles it (s.Settlement), with the handler (returns.go).
	ret *ast.ReturnStmt
	h   *contract.Handler
}

// pos and end are the event's extent: the call's, or the return's.
func (e *event) pos() token.Pos {
	if e.ret != nil {
		return e.ret.Pos()
	}
	return e.s.Call.Pos()
}

func (e *event) end() token.Pos {
	if e.ret != nil {
		return e.ret.End()
	}
	return e.s.Call.End()
}

// graph is a body's CFG with its settlements placed in their blocks.
type graph struct {
	events map[*cfg.Block][]*event
	all    []*event
	reach  *dataflow.Reach
}

func (c *checker) run() {
	if c.pass.TypesInfo == nil {
		return
	}
	for _, body := range c.m.Paths().AckBodies() {
		if ast.IsGenerated(c.fileOf(body)) {
			continue
		}
		*c.at = body.Pos()
		c.checkBody(body)
	}
}

// fileOf returns the file that holds n.
func (c *checker) fileOf(n ast.Node) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= n.Pos() && n.Pos() <= f.FileEnd {
			return f
		}
	}
	return &ast.File{}
}

// checkBody reports, in one body, the settlements reachable from an Ack
// of the same message that no Term precedes.
func (c *checker) checkBody(body *ast.BlockStmt) {
	g := c.newGraph(body)
	if g == nil {
		return
	}
	afterTerm := make(map[*event]bool)
	for _, ev := range g.all {
		if ev.s.Settlement == profile.Terminate {
			g.after(ev, func(e *event) bool {
				if sameMessage(ev.s, e.s) {
					afterTerm[e] = true
				}
				return true
			})
		}
	}
	found := make(map[*event]*event) // later settlement -> the Ack it follows
	for _, ack := range g.all {
		if ack.s.Settlement != profile.Done || afterTerm[ack] || !c.m.Messages().RedeliveredVars(ack.s.Msgs) {
			continue // a message nothing redelivers: its second settlement loses nothing
		}
		*c.at = ack.s.Call.Pos()
		c.walk(g, ack, func(e *event) {
			if _, dup := found[e]; !dup {
				found[e] = ack
			}
		})
	}
	var later []*event
	for e := range found {
		later = append(later, e)
	}
	sort.Slice(later, func(i, j int) bool { return later[i].pos() < later[j].pos() })
	for _, e := range later {
		c.report(e, found[e])
	}
}

// newGraph places the settlements of body (outside function literals,
// deferred calls and calls started with go) on its CFG; nil when the
// model built none.
func (c *checker) newGraph(body *ast.BlockStmt) *graph {
	flow := c.m.CFG(body)
	if flow == nil {
		return nil
	}
	g := &graph{events: make(map[*cfg.Block][]*event), reach: dataflow.NewReach(flow)}
	h := c.errorHandler(body)
	for _, b := range flow.Blocks {
		if !b.Live {
			continue
		}
		for i, n := range b.Nodes {
			var evs []*event
			c.scan(n, func(s contract.SettleCall) { evs = append(evs, &event{s: s}) })
			if ev := c.errorReturn(body, h, n); ev != nil {
				evs = append(evs, ev)
			}
			// Operands are evaluated before the call that takes them.
			sort.SliceStable(evs, func(i, j int) bool { return evs[i].end() < evs[j].end() })
			for _, ev := range evs {
				ev.block, ev.node, ev.index = b, i, len(g.events[b])
				g.events[b] = append(g.events[b], ev)
				g.all = append(g.all, ev)
			}
		}
	}
	return g
}

// scan calls f for each settlement n makes that settletwice orders: an
// Ack for certain (AsAck), a Nak, NakWithDelay, Term or TermWithReason,
// and a helper that makes one of those whenever it runs.
func (c *checker) scan(n ast.Node, f func(contract.SettleCall)) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.DeferStmt, *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if s, ok := c.m.Settle().AsAck(n); ok {
				f(s)
				return true
			}
			for _, st := range []profile.Settlement{profile.Terminate, profile.RetryLater, profile.RetryNow} {
				if s, ok := c.later(n, st); ok {
					f(s)
					break
				}
			}
		}
		return true
	})
}

// later recognizes a settlement st that contradicts an earlier Ack: the
// ack method itself, or a helper that settles its message as st whenever
// it runs (a helper that does only on some path, or under a condition on
// its error, is not counted: which path it takes is not known here).
func (c *checker) later(call *ast.CallExpr, st profile.Settlement) (contract.SettleCall, bool) {
	if ack, ok := c.m.Messages().AsAckCall(call); ok {
		if ack.Settlement != st {
			return contract.SettleCall{}, false
		}
		return contract.SettleCall{Call: call, Settlement: st, Msg: ack.Recv, Msgs: c.m.Messages().Deps(ack.Recv), Name: ack.Method}, true
	}
	return c.m.Settle().CertainHelperSettle(call, st)
}

// after calls f for each event reachable after ev without crossing a
// back edge, each block once, until f returns false.
func (g *graph) after(ev *event, f func(*event) bool) {
	dataflow.EventsAfter(g.reach, g.events, ev.block, ev.index, f)
}

// walk calls found for each settlement of the Ack's message, other than an
// Ack, that is the first settlement of it on a path from the Ack: paths
// stop at the next settlement of the message (a second Ack walks on its
// own), never cross a loop's back edge, and skip the failure branch of the
// Ack's own error (if err := m.Ack(); err != nil { m.Nak() }: the Ack
// failed there).
func (c *checker) walk(g *graph, ack *event, found func(*event)) {
	errVar, tested := c.ackError(ack)
	seen := make(map[*cfg.Block]bool)
	var visit func(b *cfg.Block, from int, errVar *types.Var)
	visit = func(b *cfg.Block, from int, errVar *types.Var) {
		evs := g.events[b]
		for ; from < len(evs); from++ {
			e := evs[from]
			if !sameMessage(ack.s, e.s) {
				continue
			}
			if e.s.Settlement != profile.Done {
				found(e)
			}
			return
		}
		if errVar != nil && b != ack.block && assignsAny(b, errVar, c.pass.TypesInfo) {
			errVar = nil // overwritten: its later tests are about something else
		}
		succs := g.reach.Succs(b)
		if len(b.Nodes) > 0 && len(b.Succs) == 2 {
			if cond, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr); ok {
				if broken(c.pass.TypesInfo, cond) {
					return // a branch on a broken type: which side runs is not known
				}
				is := func(e ast.Expr) bool {
					e = ast.Unparen(e)
					return (b == ack.block && tested && e == ack.s.Call) || (errVar != nil && goast.IsVar(e, errVar, c.pass.TypesInfo))
				}
				succs = slices.DeleteFunc(slices.Clone(succs), func(s *cfg.Block) bool {
					return goast.NilTest(cond, is, s == b.Succs[0]) == goast.Failed
				})
			}
		}
		for _, s := range succs {
			if !seen[s] {
				seen[s] = true
				visit(s, 0, errVar)
			}
		}
	}
	seen[ack.block] = true
	visit(ack.block, ack.index+1, errVar)
}

// ackError returns the variable the Ack's error is assigned to (err :=
// m.Ack(), in an if statement's init too), and whether the Ack call itself
// is the operand of the block's condition (if m.Ack() != nil).
func (c *checker) ackError(ack *event) (*types.Var, bool) {
	n := ack.block.Nodes[ack.node]
	if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == ack.s.Call {
		if id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); ok {
			v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
			if v != nil && gotypes.IsError(v.Type()) {
				return v, false
			}
		}
	}
	_, isCond := n.(ast.Expr)
	return nil, isCond && ack.node == len(ack.block.Nodes)-1
}

// report reports the settlement e that follows the Ack ack.
func (c *checker) report(e, ack *event) {
	if e.ret != nil {
		c.reportReturn(e, ack)
		return
	}
	verb := verbs[e.s.Settlement]
	subject := verb
	if e.s.Helper {
		subject = "call to " + e.s.Name + " (it " + verb + "s the message)"
	}
	ackVerb := ack.s.Name
	if ack.s.Helper {
		ackVerb = "Ack in " + ack.s.Name
	}
	d := analysis.Diagnostic{
		Pos: e.s.Call.Pos(), End: e.s.Call.End(),
		Message: fmt.Sprintf("%s after %s is ignored: the message was acknowledged before the work that failed; acknowledge after the work",
			subject, ackVerb),
		Related: []analysis.RelatedInformation{{Pos: ack.s.Call.Pos(), End: ack.s.Call.End(), Message: "the message is acknowledged here"}},
	}
	if e.s.Helper && e.s.Inner.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: e.s.Inner, Message: "the " + verb + " inside " + e.s.Name})
	}
	c.m.Report(c.pass, d)
}

// sameMessage reports whether two settlements concern the same message:
// they settle the same message variables, or, when either is not held in
// a variable the model follows, the same expression.
func sameMessage(a, b contract.SettleCall) bool {
	if len(a.Msgs) > 0 && len(b.Msgs) > 0 {
		for _, v := range a.Msgs {
			if slices.Contains(b.Msgs, v) {
				return true
			}
		}
		return false
	}
	return a.Msg != nil && b.Msg != nil && types.ExprString(a.Msg) == types.ExprString(b.Msg)
}
