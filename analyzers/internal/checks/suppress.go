package checks

import (
	"go/ast"
	"go/token"
	"reflect"
	"slices"
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

// Names returns the checks a //retrylint:ignore directive can name: the
// checks built with New. (analyzers/suite holds the checks themselves; a
// test keeps the two lists equal.) The model below the checks knows none
// of them.
func Names() []string {
	return []string{"retryflatten", "termbeforedlq", "barenak", "ackretryable", "dlqunchecked", "poisonack"}
}

// Directive is one suppression directive of a package.
type Directive struct {
	Pos    token.Pos
	Checks []string // the checks it names; nil for every check
	Reason string   // empty when missing; a //retrylint:ignore without one suppresses nothing
	Nolint bool     // a //nolint form: golangci-lint's, needs no reason, never reported unused
}

// valid reports whether the directive suppresses anything, nolint telling
// whether //nolint forms are honoured.
func (d *Directive) valid(nolint bool) bool {
	if d.Nolint {
		return nolint
	}
	return d.Reason != ""
}

// names reports whether the directive covers check.
func (d *Directive) names(check string) bool {
	return d.Checks == nil || slices.Contains(d.Checks, check)
}

// Suppressions is the analyzer that reads a package's suppression
// directives, once for every check. It reads both forms; whether the
// //nolint forms are honoured is the contract configuration's Nolint,
// applied when a check's diagnostic is matched.
var Suppressions = &analysis.Analyzer{
	Name:             "retrylintdirectives",
	Doc:              "reads retrylint's suppression directives (//retrylint:ignore, //nolint) and the generated files of a package",
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Index](),
	Run:              func(pass *analysis.Pass) (any, error) { return newIndex(pass), nil },
}

// Index indexes the directives of a package by the lines they cover, and
// its generated files. It is read-only once built.
type Index struct {
	directives []*Directive
	lines      map[lineKey][]*Directive
	generated  map[string]bool
}

// Directives returns the package's suppression directives, in source
// order (none from generated files), //nolint forms included.
func (s *Index) Directives() []*Directive { return s.directives }

func newIndex(pass *analysis.Pass) *Index {
	s := &Index{lines: make(map[lineKey][]*Directive), generated: make(map[string]bool)}
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
				d := parseDirective(c)
				if d == nil {
					continue
				}
				if src == nil && pass.ReadFile != nil {
					src, _ = pass.ReadFile(name)
				}
				s.directives = append(s.directives, d)
				line := tf.Line(c.Slash)
				s.lines[lineKey{name, line}] = append(s.lines[lineKey{name, line}], d)
				if aloneOnLine(tf, src, c.Slash) {
					s.lines[lineKey{name, line + 1}] = append(s.lines[lineKey{name, line + 1}], d)
				}
			}
		}
	}
	return s
}

// parseDirective reads a suppression directive:
//
//	//retrylint:ignore <reason>                    every check
//	//retrylint:ignore <check>[,<check>] <reason>  the checks named
//	//nolint, //nolint:all, //nolint:retrylint     every check (honoured with Nolint)
//	//nolint:<check>[,...]                         the checks named (honoured with Nolint)
//
// It returns nil for any other comment.
func parseDirective(c *ast.Comment) *Directive {
	if rest, ok := strings.CutPrefix(c.Text, IgnoreDirective); ok {
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return nil
		}
		d := &Directive{Pos: c.Slash}
		rest = strings.TrimSpace(rest)
		first, after, _ := strings.Cut(rest, " ")
		if checks := checkList(first); checks != nil {
			d.Checks, rest = checks, after
		}
		d.Reason = strings.TrimSpace(rest)
		return d
	}
	rest, ok := strings.CutPrefix(c.Text, NolintDirective)
	if !ok {
		return nil
	}
	if rest == "" || rest[0] == ' ' || rest[0] == '\t' {
		return &Directive{Pos: c.Slash, Nolint: true} // bare //nolint silences every linter
	}
	if rest[0] != ':' {
		return nil
	}
	list, _, _ := strings.Cut(rest[1:], " ")
	d := &Directive{Pos: c.Slash, Nolint: true}
	for name := range strings.SplitSeq(list, ",") {
		switch name = strings.TrimSpace(name); {
		case name == nolintName || name == "all":
			d.Checks = nil
			return d
		case slices.Contains(Names(), name):
			d.Checks = append(d.Checks, name)
		}
	}
	if d.Checks == nil {
		return nil // names other linters only
	}
	return d
}

// checkList returns the checks a comma-separated word names, or nil when
// some part of it names no check (then the word is the reason's start).
func checkList(word string) []string {
	var out []string
	for name := range strings.SplitSeq(word, ",") {
		if !slices.Contains(Names(), name) {
			return nil
		}
		out = append(out, name)
	}
	return out
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

// Match returns the directive that silences check's diagnostic at pos,
// and whether the diagnostic is silenced (a generated file silences it
// with no directive); nolint tells whether //nolint forms are honoured.
func (s *Index) Match(fset *token.FileSet, pos token.Pos, check string, nolint bool) (*Directive, bool) {
	p := fset.Position(pos)
	if s.generated[p.Filename] {
		return nil, true
	}
	for _, d := range s.lines[lineKey{p.Filename, p.Line}] {
		if d.valid(nolint) && d.names(check) {
			return d, true
		}
	}
	return nil, false
}
