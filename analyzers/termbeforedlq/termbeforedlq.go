package termbeforedlq

import (
	"fmt"
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
			reportNonWriters(pass, m, at)
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

// reportNonWriters reports the Terms and Acks of a function named like a
// DLQ writer that writes nothing anywhere (contract version 3): its
// callers believe the message dead-lettered, and it is gone with its
// evidence.
func reportNonWriters(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			continue
		}
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			*at = d.Pos()
			for _, call := range m.DLQ().NamedNonWriter(d) {
				a, _ := m.Messages().AsAckCall(call)
				verb := "terminates"
				if a.IsAck() {
					verb = "acknowledges"
				}
				m.Report(pass, analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: fmt.Sprintf(
					"%s %s the message without writing it anywhere: its callers lose the message and its evidence; "+
						"write it to the DLQ and check the write first, on failure %s and return",
					d.Name.Name, verb, m.Messages().DelayedRetry(a.Recv))})
			}
		}
	}
}
