package dlqunchecked

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/ordering"
)

// Name is the analyzer's name.
const Name = "dlqunchecked"

// Analyzer is dlqunchecked on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns dlqunchecked built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return contract.NewCheck(model, contract.CheckSpec{
		Name:      Name,
		DocSource: docSource,
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			ordering.Run(pass, m, at, spec)
		},
	})
}

// spec orders Acks against DLQ writes.
var spec = &ordering.Spec{
	Settle: func(m *contract.Model, call *ast.CallExpr) (contract.SettleCall, bool) { return m.AsAck(call) },
	Bodies: func(m *contract.Model) []*ast.BlockStmt {
		return append(m.AckBodies(), m.HandlerBodies()...)
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
	},
}
