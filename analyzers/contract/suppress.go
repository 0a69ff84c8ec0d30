package contract

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Directive prefixes that silence a diagnostic on their line or, alone on
// a line, on the next line. //nolint follows golangci-lint: bare, :all, or a
// list naming retrylint.
const (
	IgnoreDirective = "//retrylint:ignore"
	NolintDirective = "//nolint"
	nolintName      = "retrylint"
)

type lineKey struct {
	file string
	line int
}

// suppressions indexes the lines a directive covers and the generated
// files of a package.
type suppressions struct {
	lines     map[lineKey]bool
	generated map[string]bool
}

func newSuppressions(pass *analysis.Pass, nolint bool) *suppressions {
	s := &suppressions{lines: make(map[lineKey]bool), generated: make(map[string]bool)}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		name := tf.Name()
		if ast.IsGenerated(f) {
			s.generated[name] = true
			continue
		}
		var src []byte // read at the first suppression: most files have none
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if !isSuppression(c.Text, nolint) {
					continue
				}
				if src == nil && pass.ReadFile != nil {
					src, _ = pass.ReadFile(name)
				}
				line := tf.Line(c.Slash)
				s.lines[lineKey{name, line}] = true
				if aloneOnLine(tf, src, c.Slash) {
					s.lines[lineKey{name, line + 1}] = true
				}
			}
		}
	}
	return s
}

// isSuppression reports whether a comment is a retrylint directive; with
// nolint, //nolint directives naming retrylint count too.
func isSuppression(text string, nolint bool) bool {
	if rest, ok := strings.CutPrefix(text, IgnoreDirective); ok {
		return rest == "" || rest[0] == ' ' || rest[0] == '\t'
	}
	rest, ok := strings.CutPrefix(text, NolintDirective)
	if !ok || !nolint {
		return false
	}
	if rest == "" || rest[0] == ' ' || rest[0] == '\t' {
		return true // bare //nolint silences every linter
	}
	if rest[0] != ':' {
		return false
	}
	list, _, _ := strings.Cut(rest[1:], " ")
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == nolintName || name == "all" {
			return true
		}
	}
	return false
}

// aloneOnLine reports whether only white space precedes pos on its line.
// Without the source, a directive is taken to cover the next line too.
func aloneOnLine(tf *token.File, src []byte, pos token.Pos) bool {
	off := tf.Offset(pos)
	if src == nil || off > len(src) {
		return true
	}
	for i := off - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	return true
}

// covers reports whether a diagnostic at pos is silenced.
func (s *suppressions) covers(fset *token.FileSet, pos token.Pos) bool {
	p := fset.Position(pos)
	return s.generated[p.Filename] || s.lines[lineKey{p.Filename, p.Line}]
}
