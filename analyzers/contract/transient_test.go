package contract_test

import (
	"go/ast"
	"strings"

	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// TestClassifierFacts checks which functions get "retry delay classifier"
// and "retry predicate" facts.
func TestClassifierFacts(t *testing.T) {
	t.Parallel()
	facts.Run(t, "contract/transient/classify")
}

// TestTransientPaths checks the facts ErrorPaths gives at each probe()
// call, over the shapes CONTRACT.md names: if, switch, type switch, early
// return, reassignment, retry loops, && and ||, classifiers from another
// package.
func TestTransientPaths(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, testdata, probe, "contract/transient/paths")
}

// probe reports the transient-path facts at every call of a function named
// probe.
var probe = &analysis.Analyzer{
	Name:             "transientprobe",
	Doc:              "reports the contract model's transient-path facts at each probe() call",
	Requires:         []*analysis.Analyzer{contract.Analyzer},
	RunDespiteErrors: true,
	Run: func(pass *analysis.Pass) (any, error) {
		m := pass.ResultOf[contract.Analyzer].(*contract.Model)
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				var body *ast.BlockStmt
				switch n := n.(type) {
				case *ast.FuncDecl:
					body = n.Body
				case *ast.FuncLit:
					body = n.Body
				default:
					return true
				}
				if body != nil {
					probeBody(pass, m, body)
				}
				return true
			})
		}
		return nil, nil
	},
}

func probeBody(pass *analysis.Pass, m *contract.Model, body *ast.BlockStmt) {
	paths := contract.SolveBody(m, body)
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "probe" {
			return true
		}
		facts, ok := paths.At(call)
		if !ok {
			pass.Reportf(call.Pos(), "none")
			return true
		}
		pass.Reportf(call.Pos(), "%s", describe(m, facts, call))
		return true
	})
}

func describe(m *contract.Model, f contract.PathFacts, call *ast.CallExpr) string {
	var marks []string
	name := func(v interface{ Name() string }, isNil bool) string {
		if isNil {
			return "_"
		}
		return v.Name()
	}
	if t := f.Transient; t != nil {
		s := "P:"
		if t.Classified {
			s = "T:"
		}
		s += name(t.Err, t.Err == nil)
		if d := m.DelayExpr(t, call.Pos()); d != "" {
			s += ":" + d
		}
		marks = append(marks, s)
	}
	if b := f.ErrorBranch; b != nil {
		marks = append(marks, "B:"+name(b.Err, b.Err == nil))
	}
	if f.ErrorPath {
		marks = append(marks, "E")
	}
	if f.ZeroDelay {
		marks = append(marks, "Z")
	}
	if len(marks) == 0 {
		return "-"
	}
	return strings.Join(marks, " ")
}
