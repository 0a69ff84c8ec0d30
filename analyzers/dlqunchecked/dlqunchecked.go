package dlqunchecked

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/foreign"
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
// reports the returns, at the registration (analyzers/internal/foreign).
type LostWriteFact = foreign.Fact[LostWrite]

// LostWrite is one such return: the defect's kind, the DLQ write (its
// callee as written, "" for a function literal) and the message's
// delayed-retry method, with places relative to the function's
// declaration (foreign.Place). Unconfirmed and ConfirmFix are the model's
// account of an unconfirmed write (contract.DLQWrite): why its success
// cannot be known, and how to know.
type LostWrite struct {
	At                      foreign.Place
	Kind                    ordering.Kind
	Write                   string
	WriteAt                 foreign.Place
	Retry                   string
	Unconfirmed, ConfirmFix string
}

// Return is where the return is.
func (r LostWrite) Return() foreign.Place { return r.At }

// Summary is LostWriteFact's String.
func (LostWrite) Summary() string { return "loses a DLQ write if a caller acks on nil" }

func exportCandidates(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
	for d, cands := range ordering.Candidates(pass, m, at, spec) {
		fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func)
		if !ok {
			continue
		}
		var rows []LostWrite
		for _, c := range cands {
			ret, ok := foreign.At(m, fn, c.Return.Pos())
			w, wok := foreign.At(m, fn, c.Write.Call.Pos())
			if !ok || !wok {
				continue
			}
			rows = append(rows, LostWrite{At: ret, Kind: c.Kind, Write: c.Write.Name, WriteAt: w, Retry: c.Retry,
				Unconfirmed: c.Write.Unconfirmed, ConfirmFix: c.Write.ConfirmFix})
		}
		foreign.Export(pass, fn, rows)
	}
}

// reportForeign reports, at the registration, the returns of handlers
// declared in another package and registered here with a bus that Acks on
// nil.
func reportForeign(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
	foreign.Report(pass, m, at, func(f foreign.Finding[LostWrite]) (string, []analysis.RelatedInformation) {
		r := f.Row
		subject := "handler " + f.Name + " returning nil (" + f.Handler.Caller + " then Acks the message)"
		return spec.Message(r.Kind, subject, r.Write, r.Retry, r.Unconfirmed, r.ConfirmFix),
			[]analysis.RelatedInformation{{Pos: f.Pos(r.WriteAt), Message: "the DLQ write"}}
	})
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
