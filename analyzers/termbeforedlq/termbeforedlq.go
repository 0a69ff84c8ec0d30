package termbeforedlq

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/ordering"
)

// Name is the analyzer's name.
const Name = "termbeforedlq"

// Analyzer is termbeforedlq on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns termbeforedlq built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			ordering.Run(pass, m, at, spec)
		},
	})
}

// spec orders Terms (and calls of helpers that may Term) against DLQ
// writes.
var spec = &ordering.Spec{
	Settle: func(m *contract.Model, call *ast.CallExpr) (contract.SettleCall, bool) {
		return m.Settle().AsTerm(call)
	},
	Bodies: func(m *contract.Model) []*ast.BlockStmt { return m.Paths().TermBodies() },
	Verb:   "Term",
	Formats: [...]string{
		ordering.Before:         "%s before the DLQ write%s: write the DLQ and check its error first; on failure %[3]s and return",
		ordering.DeferredAfter:  "%s before the deferred DLQ write%s runs: write the DLQ and check its error first; on failure %[3]s and return",
		ordering.Spawned:        "%s not ordered after the DLQ write%s started with go: write the DLQ synchronously and check its error first; on failure %[3]s and return",
		ordering.FailurePath:    "%s on the failure path of the DLQ write%s: on failure %[3]s and return instead of terminating",
		ordering.UncheckedWrite: "%s after the DLQ write%s whose error is not checked: check its error first; on failure %[3]s and return",
		ordering.Unconfirmed:    "%s after the DLQ write%s, %[4]s: %[5]s before terminating; on failure %[3]s and return",
	},
}
