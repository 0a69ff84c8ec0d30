package checks

import (
	"go/ast"
	"go/token"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/report"

	"github.com/retrylint/retrylint/internal/spell"
)

// Directive prefixes. //retrylint:ignore and //nolint silence a
// diagnostic on their line or, alone on a line, on the next line;
// //retrylint:file-ignore silences the checks it names in its whole file.
// //nolint follows golangci-lint: bare, :all, or a list naming retrylint.
const (
	IgnoreDirective     = "//retrylint:ignore"
	FileIgnoreDirective = "//retrylint:file-ignore"
	NolintDirective     = "//nolint"
	nolintName          = "retrylint"
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
	return []string{"retryflatten", "termbeforedlq", "barenak", "ackretryable", "dlqunchecked", "poisonack", "settletwice", "ackpermanent"}
}

// Directive is one suppression directive of a package.
type Directive struct {
	Pos    token.Pos
	Checks []string // the checks it names; nil for every check
	// Unknown holds the names in its check list that name no check (a
	// typo: barenack, Poisonack, dlq-unchecked). A directive with one
	// suppresses nothing.
	Unknown []string
	Reason  string // empty when missing; a //retrylint: directive without one suppresses nothing
	Nolint  bool   // a //nolint form: golangci-lint's, needs no reason, never reported unused
	File    bool   // //retrylint:file-ignore: covers its file, names its checks
}

// Prefix returns the directive's prefix: IgnoreDirective,
// FileIgnoreDirective or NolintDirective.
func (d *Directive) Prefix() string {
	switch {
	case d.Nolint:
		return NolintDirective
	case d.File:
		return FileIgnoreDirective
	}
	return IgnoreDirective
}

// valid reports whether the directive suppresses anything, nolint telling
// whether //nolint forms are honoured.
func (d *Directive) valid(nolint bool) bool {
	switch {
	case len(d.Unknown) > 0:
		return false
	case d.Nolint:
		return nolint
	case d.File && d.Checks == nil:
		return false
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

// Index indexes the directives of a package by the lines (or files)
// they cover, and its generated files. It is read-only once built.
type Index struct {
	directives []*Directive
	lines      map[lineKey][]*Directive
	files      map[string][]*Directive // file-ignore directives by file
	generated  map[string]bool
}

// Directives returns the package's suppression directives, in source
// order (none from generated files), //nolint forms included.
func (s *Index) Directives() []*Directive { return s.directives }

func newIndex(pass *analysis.Pass) *Index {
	s := &Index{lines: make(map[lineKey][]*Directive), files: make(map[string][]*Directive), generated: make(map[string]bool)}
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
				s.directives = append(s.directives, d)
				if d.File {
					file := report.DisplayPosition(pass.Fset, c.Slash).Filename
					s.files[file] = append(s.files[file], d)
					continue
				}
				if src == nil && pass.ReadFile != nil {
					src, _ = pass.ReadFile(name)
				}
				at := report.DisplayPosition(pass.Fset, c.Slash)
				key := lineKey{at.Filename, at.Line}
				s.lines[key] = append(s.lines[key], d)
				if aloneOnLine(tf, src, c.Slash) {
					next := lineKey{at.Filename, at.Line + 1}
					s.lines[next] = append(s.lines[next], d)
				}
			}
		}
	}
	return s
}

// parseDirective reads a suppression directive:
//
//	//retrylint:ignore <reason>                        every check
//	//retrylint:ignore <check>[,<check>] <reason>      the checks named
//	//retrylint:file-ignore <check>[,<check>] <reason> the checks named, in the whole file
//	//nolint, //nolint:all, //nolint:retrylint         every check (honoured with Nolint)
//	//nolint:<check>[,...]                             the checks named (honoured with Nolint)
//
// It returns nil for any other comment. Which words are a check list is
// checkList's rule; the names in it that are no check's go to Unknown.
func parseDirective(c *ast.Comment) *Directive {
	for _, prefix := range []string{IgnoreDirective, FileIgnoreDirective} {
		rest, ok := strings.CutPrefix(c.Text, prefix)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		d := &Directive{Pos: c.Slash, File: prefix == FileIgnoreDirective}
		words := strings.Fields(rest)
		list, n := checkList(words)
		if d.File && n == 0 && len(words) > 0 {
			list, n = strings.Split(strings.TrimSuffix(words[0], ","), ","), 1 // file-ignore always names its checks
		}
		for _, name := range list {
			if slices.Contains(Names(), name) {
				d.Checks = append(d.Checks, name)
			} else {
				d.Unknown = append(d.Unknown, name)
			}
		}
		d.Reason = strings.Join(words[n:], " ")
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
	all := false
	for name := range strings.SplitSeq(list, ",") {
		switch name = strings.TrimSpace(name); {
		case name == nolintName || name == "all":
			all = true
		case slices.Contains(Names(), name):
			d.Checks = append(d.Checks, name)
		case spell.Nearest(name, append(Names(), nolintName)) != "":
			d.Unknown = append(d.Unknown, name) // //nolint:poisonak: a typo, not another linter
		}
	}
	switch {
	case all && d.Unknown == nil:
		d.Checks = nil
	case d.Checks == nil && d.Unknown == nil:
		return nil // names other linters only
	}
	return d
}

// checkList returns the check list at the start of a //retrylint:ignore
// directive's words, and how many words it took; none when the words are
// all reason. The list is read fail closed: a misspelled list must not
// become a reason that silences every check. A word is read as the list
// (or the start of it) when, without one final comma,
//
//   - it is two or more names joined by commas, each a letter followed by
//     letters, digits, - or _ (barenak,poisonack; barenack,ackretryable;
//     foo,bar); or
//   - it is, or one of its comma-separated parts is, a check's name or a
//     misspelling of one: within edit distance 1 (2 for names of 12
//     letters or more), ignoring case (barenak; barenack, Barenak,
//     bareank, poisonak, dlq-unchecked, ackretriable, barenak:).
//
// Empty parts are dropped (,barenak is barenak).
//
// A word that ends with a comma continues the list into the next word if
// that word is one of these too (barenak, poisonack <reason>). No word of
// English prose is that near a check name (see typoDistance), so a reason
// (//retrylint:ignore retries are capped by MaxDeliver) stays a reason.
func checkList(words []string) (list []string, n int) {
	for n < len(words) {
		word, more := strings.CutSuffix(words[n], ",")
		parts := strings.Split(word, ",")
		near := slices.ContainsFunc(parts, func(p string) bool { return spell.Nearest(p, Names()) != "" })
		if near || len(parts) > 1 && !slices.ContainsFunc(parts, notName) {
			for _, p := range parts {
				if p != "" {
					list = append(list, p)
				}
			}
			n++
			if more {
				continue
			}
		}
		break
	}
	return list, n
}

// notName reports whether s is not name-shaped: a letter, then letters,
// digits, - or _.
func notName(s string) bool {
	for i, r := range s {
		letter := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		if !letter && (i == 0 || !('0' <= r && r <= '9' || r == '-' || r == '_')) {
			return true
		}
	}
	return s == ""
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
// A directive of the line wins over a file-ignore directive. Positions
// are compared where staticcheck's report.DisplayPosition puts them,
// directives and diagnostics alike: where a //line directive maps them
// when that is a Go file (cgo's output maps the user's lines back to the
// user's file, which holds the user's directives), in the file itself
// otherwise (goyacc's output maps its lines to the grammar: the generated
// file is what a finding is in).
func (s *Index) Match(fset *token.FileSet, pos token.Pos, check string, nolint bool) (*Directive, bool) {
	p := report.DisplayPosition(fset, pos)
	if s.generated[p.Filename] {
		return nil, true
	}
	for _, d := range s.lines[lineKey{p.Filename, p.Line}] {
		if d.valid(nolint) && d.names(check) {
			return d, true
		}
	}
	for _, d := range s.files[p.Filename] {
		if d.valid(nolint) && d.names(check) {
			return d, true
		}
	}
	return nil, false
}
