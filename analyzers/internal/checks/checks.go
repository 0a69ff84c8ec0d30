// Package checks is the scaffolding every retrylint check is built with:
// the same doc source, URL, requirement on the contract model, tolerance of
// type errors and panic guard, and the suppression directives applied to
// what a check reports. The model below knows nothing of the checks.
//
// A check reports nothing in a generated file: one go/ast.IsGenerated
// names, with the marker of go.dev/s/generatedcode before its package
// clause (not staticcheck's facts/generated, which counts a marker on any
// line: README, "Dependencies").
package checks

import (
	"fmt"
	"go/token"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/analyzerdoc"
	"github.com/retrylint/retrylint/internal/globs"
)

// ContractURL is the specification's address; each check's doc URL is its
// section there.
const ContractURL = "https://github.com/retrylint/retrylint/blob/main/docs/contract.md"

// Result is what a check leaves for the directives meta check: the
// suppression directives that silenced one of its diagnostics.
type Result struct {
	Used []*Directive
}

// Spec describes a retrylint check for New.
type Spec struct {
	Name      string
	DocSource string // the check's doc.go, embedded: Doc is its "# Analyzer" section
	FactTypes []analysis.Fact
	// Run checks one package; it keeps *at on the position it looks at,
	// for the internal error a panic becomes.
	Run func(pass *analysis.Pass, m *contract.Model, at *token.Pos)
}

// New builds a check's Analyzer on model, a contract analyzer.
//
// Besides the check's own options, every check has -NAME.exclude, the
// files whose findings it does not report (globs.Globs), as the
// model's -retrycontract.exclude does for every check.
func New(model *analysis.Analyzer, spec Spec) *analysis.Analyzer {
	exclude := new(globs.Globs)
	a := &analysis.Analyzer{
		Name:             spec.Name,
		Doc:              analyzerdoc.Section(spec.DocSource),
		URL:              ContractURL + "#" + spec.Name,
		Requires:         []*analysis.Analyzer{model, Suppressions},
		RunDespiteErrors: true,
		FactTypes:        spec.FactTypes,
		ResultType:       reflect.TypeFor[*Result](),
		Run: func(pass *analysis.Pass) (any, error) {
			m := pass.ResultOf[model].(*contract.Model)
			index := pass.ResultOf[Suppressions].(*Index)
			nolint := m.Config().Nolint
			res := &Result{}
			p := *pass // the check's pass applies the suppression directives
			p.Report = func(d analysis.Diagnostic) {
				if file := pass.Fset.Position(d.Pos).Filename; m.Config().Exclude.Match(file) || exclude.Match(file) {
					return
				}
				if dir, silenced := index.Match(pass.Fset, d.Pos, spec.Name, nolint); silenced {
					if dir != nil && !slices.Contains(res.Used, dir) {
						res.Used = append(res.Used, dir)
					}
					return
				}
				pass.Report(d)
			}
			var at token.Pos
			return res, guard(spec.Name, &p, &at, func() { spec.Run(&p, m, &at) })
		},
	}
	a.Flags.Var(exclude, contract.FlagExclude,
		"comma-separated path `globs` (** for any directories) of files "+spec.Name+" does not report on; a relative glob matches at any depth")
	return a
}

// guard runs a check's body and turns a panic into an error that names
// the analyzer and the position it was looking at (*at, which the body
// keeps current), so that no input crashes a driver.
func guard(name string, pass *analysis.Pass, at *token.Pos, body func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: internal error at %s: %v", name, pass.Fset.Position(*at), r)
		}
	}()
	body()
	return nil
}
