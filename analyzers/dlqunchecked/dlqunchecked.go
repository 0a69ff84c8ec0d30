package dlqunchecked

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/ordering"
)

// Name is the analyzer's name.
const Name = "dlqunchecked"

// Analyzer is dlqunchecked on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns dlqunchecked built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		FactTypes: []analysis.Fact{new(LostWriteFact)},
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			ordering.Run(pass, m, at, spec)
			exportCandidates(pass, m, at)
			reportForeign(pass, m, at)
		},
	})
}

// LostWriteFact marks a function whose `return nil` would lose a DLQ
// write if a caller Acked on nil: the package that declares a handler
// cannot know it is one; the package that registers it with such a bus
// reports the returns. Positions are relative to the declaration
// (contract.Model.Site); messages name the caller as
// ordering.CallerPlaceholder.
type LostWriteFact struct {
	Returns []LostWrite
}

// LostWrite is one such return.
type LostWrite struct {
	Line, Col           int
	Message             string
	WriteLine, WriteCol int
}

func (*LostWriteFact) AFact() {}
func (*LostWriteFact) String() string {
	return "loses a DLQ write if a caller acks on nil"
}

func exportCandidates(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
	for d, diags := range ordering.Candidates(pass, m, at, spec) {
		fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func)
		if !ok {
			continue
		}
		var f LostWriteFact
		for _, dg := range diags {
			line, col, ok := m.Offset(fn, dg.Pos)
			if !ok || len(dg.Related) == 0 {
				continue
			}
			wl, wc, ok := m.Offset(fn, dg.Related[0].Pos)
			if !ok {
				continue
			}
			f.Returns = append(f.Returns, LostWrite{Line: line, Col: col, Message: dg.Message, WriteLine: wl, WriteCol: wc})
		}
		if len(f.Returns) > 0 {
			slices.SortFunc(f.Returns, func(a, b LostWrite) int { return cmp.Compare(a.Line, b.Line) })
			pass.ExportObjectFact(fn, &f)
		}
	}
}

// reportForeign reports the returns of handlers declared in another
// package and registered here with a bus that Acks on nil.
func reportForeign(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
	for _, fh := range m.Handlers().ForeignHandlers() {
		var f LostWriteFact
		if !pass.ImportObjectFact(fh.Fn, &f) {
			continue
		}
		*at = fh.Call.Pos()
		for _, r := range f.Returns {
			pos := m.Settle().SiteIn(fh.Fn, r.Line, r.Col)
			d := analysis.Diagnostic{
				Pos: pos, End: pos,
				Message: strings.ReplaceAll(r.Message, ordering.CallerPlaceholder, fh.Caller),
				Related: fh.Related(analysis.RelatedInformation{Pos: m.Settle().SiteIn(fh.Fn, r.WriteLine, r.WriteCol), Message: "the DLQ write"}),
			}
			m.Report(pass, d)
		}
	}
}

// spec orders Acks against DLQ writes.
var spec = &ordering.Spec{
	// An Ack of a message nothing redelivers (a core NATS subscription's,
	// an ordered or AckNone consumer's) settles nothing: not judged.
	Settle: func(m *contract.Model, call *ast.CallExpr) (contract.SettleCall, bool) {
		s, ok := m.Settle().AsAck(call)
		return s, ok && m.Messages().RedeliveredVars(s.Msgs)
	},
	Bodies: func(m *contract.Model) []*ast.BlockStmt {
		return slices.Concat(m.Paths().AckBodies(), m.Handlers().HandlerBodies())
	},
	Verb:           "Ack",
	HandlerReturns: true,
	DeferredAcks:   true,
	Formats: [...]string{
		ordering.Before:         "%s before the DLQ write%s: if the write fails the message and its evidence are gone; write the DLQ and check its error first, on failure %[3]s and return",
		ordering.DeferredAfter:  "%s before the deferred DLQ write%s runs: if the write fails the message and its evidence are gone; write the DLQ and check its error first, on failure %[3]s and return",
		ordering.Spawned:        "%s not ordered after the DLQ write%s started with go: write the DLQ synchronously and check its error first, on failure %[3]s and return",
		ordering.FailurePath:    "%s on the failure path of the DLQ write%s loses the message and its evidence: on failure %[3]s and return instead of acking",
		ordering.UncheckedWrite: "%s after the DLQ write%s whose error is not checked: if it failed the message and its evidence are gone; check its error first, on failure %[3]s and return",
		ordering.Unconfirmed:    "%s after the DLQ write%s, %[4]s: if it failed the message and its evidence are gone; %[5]s before acking, on failure %[3]s and return",
	},
}
