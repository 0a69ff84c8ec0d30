package contract_test

import (
	"go/ast"
	"go/types"
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

// TestNoIntentPaths checks where PathFacts.NoIntent is set: the failing
// side of an exact retry classification of a non-nil error, unless
// errors.Is or a type switch identified it on some path.
func TestNoIntentPaths(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, testdata, noIntentProbe, "contract/transient/permanent")
}

// noIntentProbe reports PathFacts.NoIntent at every call of probe():
// N:err@origin, or "-".
var noIntentProbe = &analysis.Analyzer{
	Name:     "nointentprobe",
	Doc:      "reports the contract model's no-retry-intent facts at each probe() call",
	Requires: []*analysis.Analyzer{contract.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		m := pass.ResultOf[contract.Analyzer].(*contract.Model)
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				paths := contract.SolveBody(m, fd.Body)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					if id, isID := ast.Unparen(call.Fun).(*ast.Ident); !isID || id.Name != "probe" {
						return true
					}
					facts, _ := paths.At(call)
					mark := "-"
					if ni := facts.NoIntent; ni != nil {
						mark = "N:" + ni.Err.Name()
						if c, ok := ni.Origin.(*ast.CallExpr); ok {
							mark += "@" + types.ExprString(c.Fun)
						}
					}
					pass.Reportf(call.Pos(), "%s", mark)
					return true
				})
			}
		}
		return nil, nil
	},
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
