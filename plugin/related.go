package plugin

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// foldRelated returns a, its diagnostics' related locations moved into
// their messages: "message (see: line 99:15: classified as transient here;
// ../bus/bus.go:37:6: Describe flattens its error parameter here)".
//
// golangci-lint v2 reports each related location as an issue of its own
// ("check(related information): ...", at the related line when it is in
// the finding's file, at the finding otherwise). Those issues are counted,
// fail the run, and are out of reach of the //nolint at the finding, so a
// suppressed finding left issues behind. In the message, the locations
// stay visible wherever golangci-lint prints the issue (text, SARIF,
// GitHub annotations) and a //nolint at the finding covers all of it.
//
// The wrapper runs a's Run with a copy of the pass whose Report folds; a's
// results, facts and requirements are unchanged, and the meta check is
// built over the wrappers, so it reads their results.
func foldRelated(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		folding := *pass
		folding.Report = func(d analysis.Diagnostic) {
			d.Message = withRelated(pass.Fset, d)
			d.Related = nil
			pass.Report(d)
		}
		return a.Run(&folding)
	}
	return &w
}

// withRelated is d's message followed by its related locations, each as
// "line L:C" in the finding's file or as a path relative to the finding's
// directory elsewhere.
func withRelated(fset *token.FileSet, d analysis.Diagnostic) string {
	if len(d.Related) == 0 {
		return d.Message
	}
	at := fset.Position(d.Pos)
	var see []string
	for _, r := range d.Related {
		p := fset.Position(r.Pos)
		where := fmt.Sprintf("line %d:%d", p.Line, p.Column)
		if p.Filename != at.Filename {
			name := p.Filename
			if rel, err := filepath.Rel(filepath.Dir(at.Filename), p.Filename); err == nil {
				name = filepath.ToSlash(rel)
			}
			where = fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
		}
		see = append(see, where+": "+r.Message)
	}
	return fmt.Sprintf("%s (see: %s)", d.Message, strings.Join(see, "; "))
}
