package directives

import (
	"go/ast"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/analyzerdoc"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/internal/spell"
)

// Name is the meta check's name: the tool's own, as its findings are
// about the tool's directives rather than the code.
const Name = "retrylint"

// New returns the meta check over the checks that run, built on model.
// It requires them, so it runs after them and reads which directives each
// used.
func New(model *analysis.Analyzer, checkers []*analysis.Analyzer) *analysis.Analyzer {
	var ran []string
	for _, c := range checkers {
		ran = append(ran, c.Name)
	}
	return &analysis.Analyzer{
		Name:             Name,
		Doc:              analyzerdoc.Section(docSource),
		URL:              checks.ContractURL + "#" + Name,
		Requires:         append([]*analysis.Analyzer{model, checks.Suppressions}, checkers...),
		RunDespiteErrors: true,
		Run: func(pass *analysis.Pass) (any, error) {
			m := pass.ResultOf[model].(*contract.Model)
			used := make(map[*checks.Directive]bool)
			for _, c := range checkers {
				if res, ok := pass.ResultOf[c].(*checks.Result); ok {
					for _, d := range res.Used {
						used[d] = true
					}
				}
			}
			for _, d := range pass.ResultOf[checks.Suppressions].(*checks.Index).Directives() {
				if m.Config().Exclude.Match(pass.Fset.Position(d.Pos).Filename) {
					continue // no check reports in the file: neither does this one
				}
				switch {
				case len(d.Unknown) > 0:
					if !d.Nolint || m.Config().Nolint { // under golangci-lint, //nolint is golangci-lint's
						reportUnknown(pass, d)
					}
				case d.Nolint:
				case d.File && d.Checks == nil:
					pass.Reportf(d.Pos, "%s names no check and suppresses nothing: name the checks and say why (%s <check>[,<check>] <reason>)",
						checks.FileIgnoreDirective, checks.FileIgnoreDirective)
				case d.Reason == "":
					pass.Reportf(d.Pos, "%s has no reason and suppresses nothing: say why the finding does not apply (%s <reason>)",
						d.Prefix(), directive(d))
				case !used[d] && allRan(d, ran):
					where := ""
					if d.File {
						where = " in this file"
					}
					pass.Reportf(d.Pos, "%s suppresses no finding of %s%s: remove it", directive(d), names(d), where)
				}
			}
			reportMissingDLQFuncs(pass, m.DLQFuncs())
			reportMissingDLQFuncs(pass, m.DecodeFuncs())
			m.Release() // the package's last reader of the model
			return nil, nil
		},
	}
}

// reportMissingDLQFuncs reports the dlq-funcs (or decode-funcs) entries that belong to the
// package but name no function or method of it: a typo there silently
// hides findings. The report stands at the package clause of the
// package's first file (an entry of the configuration has no place in the
// code) and names where the entry was configured. The command line checks
// the same before analysis and stops (exit 2); this check is what go vet,
// golangci-lint and gopls show.
func reportMissingDLQFuncs(pass *analysis.Pass, funcs []contract.FuncName) {
	if len(pass.TypeErrors) > 0 || len(pass.Files) == 0 {
		return // a missing declaration may be a type error's doing
	}
	first := slices.MinFunc(pass.Files, func(a, b *ast.File) int {
		return strings.Compare(pass.Fset.File(a.Pos()).Name(), pass.Fset.File(b.Pos()).Name())
	})
	for _, f := range funcs {
		if f.PkgPath == pass.Pkg.Path() && !contract.Declares(pass.Pkg, f) {
			pass.Reportf(first.Package, "%s entry %s (%s) names no %s of package %s: a typo hides findings; correct or remove the entry",
				f.OptionName(), f, f.Where(), f.Describe(), pass.Pkg.Name())
		}
	}
}

// reportUnknown reports a directive whose check list names something
// that is no check (a typo), and so suppresses nothing: the message names
// the unknown names, what each may have meant, and the checks.
func reportUnknown(pass *analysis.Pass, d *checks.Directive) {
	known := checks.Names()
	if d.Nolint {
		known = append(known, Name)
	}
	var quoted, meant []string
	for _, name := range d.Unknown {
		quoted = append(quoted, strconv.Quote(name))
		if near := spell.Nearest(name, known); near != "" {
			meant = append(meant, near)
		}
	}
	noun, fix := "check", "name only retrylint's checks"
	if len(d.Unknown) > 1 {
		noun = "checks"
	}
	if len(meant) == len(d.Unknown) {
		fix = "correct it to " + strings.Join(meant, ", ")
	}
	pass.Reportf(d.Pos, "%s names unknown %s %s and suppresses nothing: %s (checks: %s)",
		d.Prefix(), noun, strings.Join(quoted, ", "), fix, strings.Join(known, ", "))
}

// directive spells the directive without its reason.
func directive(d *checks.Directive) string {
	if d.Checks == nil {
		return d.Prefix()
	}
	return d.Prefix() + " " + strings.Join(d.Checks, ",")
}

// names describes the checks a directive covers.
func names(d *checks.Directive) string {
	if d.Checks == nil {
		return "any check"
	}
	return strings.Join(d.Checks, " or ")
}

// allRan reports whether every check the directive names ran.
func allRan(d *checks.Directive, ran []string) bool {
	want := d.Checks
	if want == nil {
		want = checks.Names()
	}
	for _, c := range want {
		if !slices.Contains(ran, c) {
			return false
		}
	}
	return true
}
