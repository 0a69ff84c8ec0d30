package contract_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// ackCalls reports every ack call the model recognizes, so the test data
// can say which receivers are messages.
var ackCalls = &analysis.Analyzer{
	Name:     "ackcalls",
	Doc:      "test: report ack calls on messages",
	Requires: []*analysis.Analyzer{contract.Analyzer, inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		m := pass.ResultOf[contract.Analyzer].(*contract.Model)
		in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for c := range in.Root().Preorder((*ast.CallExpr)(nil)) {
			if ack, ok := m.Messages().AsAckCall(c.Node().(*ast.CallExpr)); ok {
				m.Report(pass, analysis.Diagnostic{Pos: ack.Call.Pos(), Message: "ack call " + ack.Method})
			}
		}
		return nil, nil
	},
}

func TestMessages(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, testdata, ackCalls, "contract/messages")
}
