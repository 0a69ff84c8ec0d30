package termbeforedlq

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// Name is the analyzer's name.
const Name = "termbeforedlq"

// Analyzer is termbeforedlq on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns termbeforedlq built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return contract.NewCheck(model, contract.CheckSpec{
		Name:      Name,
		DocSource: docSource,
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			c := &checker{pass: pass, m: m, at: at}
			c.run()
		},
	})
}

// loggingPkgs and loggingMethods recognize calls that only record an
// error: an error passed to them is still unchecked.
var (
	loggingPkgs    = map[string]bool{"log": true, "log/slog": true, "fmt": true}
	loggingMethods = map[string]bool{
		"Print": true, "Printf": true, "Println": true,
		"Error": true, "Errorf": true, "Errorw": true, "ErrorContext": true,
		"Warn": true, "Warnf": true, "Warnw": true, "WarnContext": true, "Warning": true, "Warningf": true,
		"Info": true, "Infof": true, "Infow": true, "InfoContext": true,
		"Debug": true, "Debugf": true, "Debugw": true, "DebugContext": true,
		"Log": true, "Logf": true, "Err": true, "Msg": true, "Msgf": true,
	}
)

// kind is the defect a Term shows, in the order findings are preferred
// when one Term shows several.
type kind int

const (
	termBefore     kind = iota // a DLQ write is reachable from the Term
	deferredAfter              // a deferred DLQ write runs after the Term
	spawned                    // a DLQ write started with go is not ordered before the Term
	failurePath                // the Term is reached from a DLQ write's failure branch
	uncheckedWrite             // the Term follows a DLQ write whose error is not checked
)

// formats are the messages of each kind: the Term, then the DLQ write.
var formats = [...]string{
	termBefore:     "%s before the DLQ write%s: write the DLQ and check its error first; on failure %[3]s and return",
	deferredAfter:  "%s before the deferred DLQ write%s runs: write the DLQ and check its error first; on failure %[3]s and return",
	spawned:        "%s not ordered after the DLQ write%s started with go: write the DLQ synchronously and check its error first; on failure %[3]s and return",
	failurePath:    "%s on the failure path of the DLQ write%s: on failure %[3]s and return instead of terminating",
	uncheckedWrite: "%s after the DLQ write%s whose error is not checked: check its error first; on failure %[3]s and return",
}

// finding is the defect reported at one Term.
type finding struct {
	kind  kind
	term  *event
	write *event
}

type checker struct {
	pass     *analysis.Pass
	m        *contract.Model
	at       *token.Pos // position being checked, for internal errors
	findings map[*ast.CallExpr]*finding
}

func (c *checker) run() {
	if c.pass.TypesInfo == nil {
		return
	}
	c.findings = make(map[*ast.CallExpr]*finding)
	generated := make(map[*token.File]bool)
	for _, f := range c.pass.Files {
		if ast.IsGenerated(f) {
			generated[c.pass.Fset.File(f.FileStart)] = true
		}
	}
	for _, body := range c.m.TermBodies() {
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
	terms, writes := false, false
	c.scan(body, func(ev *event) {
		terms = terms || ev.term != nil
		writes = writes || ev.write != nil
	})
	if !terms || !writes {
		return
	}
	g := c.newGraph(body)
	if g == nil {
		return
	}
	for _, ev := range g.all {
		*c.at = ev.call.Pos()
		switch {
		case ev.term != nil && ev.mode == plain:
			c.checkTermBefore(g, ev)
		case ev.write != nil && ev.mode != plain:
			c.checkAsyncWrite(g, ev)
		case ev.write != nil:
			c.checkUnchecked(g, ev)
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

// event is a Term or a DLQ write in a function's CFG.
type event struct {
	call  *ast.CallExpr
	mode  mode
	term  *contract.TermCall
	write *contract.DLQWrite

	block *cfg.Block
	node  int // index in block.Nodes
	index int // index in the block's events

	// For plain writes that return an error: how the statement handles it.
	handling handling
	errVar   *types.Var // the variable that receives the error
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
	if t, ok := c.m.AsTerm(call); ok {
		f(&event{call: call, mode: md, term: &t})
		return
	}
	if w, ok := c.m.AsDLQWrite(call); ok {
		f(&event{call: call, mode: md, write: &w})
	}
}

// pairs reports whether a Term and a DLQ write can concern the same
// message: the write takes the Termed message or a value derived from it,
// or no message-derived value at all.
func pairs(t *contract.TermCall, w *contract.DLQWrite) bool {
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
func (c *checker) record(k kind, term, write *event) {
	old := c.findings[term.call]
	if old != nil && (old.kind < k || old.kind == k && old.write.call.Pos() <= write.call.Pos()) {
		return
	}
	c.findings[term.call] = &finding{kind: k, term: term, write: write}
}

// report reports the findings in position order.
func (c *checker) report() {
	var fs []*finding
	for _, f := range c.findings {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].term.call.Pos() < fs[j].term.call.Pos() })
	for _, f := range fs {
		t, w := f.term.term, f.write.write
		subject, inner := t.Name, "the Term inside "+t.Name
		switch {
		case t.Helper && t.Name == "":
			subject, inner = "call to a function literal that may Term the message", "the Term inside the function literal"
		case t.Helper:
			subject = "call to " + t.Name + " may Term the message"
		}
		write := " " + w.Name
		if w.Name == "" {
			write = " in a function literal"
		}
		d := analysis.Diagnostic{
			Pos:     t.Call.Pos(),
			End:     t.Call.End(),
			Message: fmt.Sprintf(formats[f.kind], subject, write, c.m.DelayedRetry(t.Msg)),
			Related: []analysis.RelatedInformation{{
				Pos: w.Call.Pos(), End: w.Call.End(), Message: "the DLQ write",
			}},
		}
		if t.Helper && t.Inner.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{
				Pos: t.Inner, Message: inner,
			})
		}
		c.m.Report(c.pass, d)
	}
}
