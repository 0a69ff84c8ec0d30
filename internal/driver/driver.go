// Package driver is retrylint's command line: it loads packages, runs the
// checks and prints findings. Invoked by go vet (-vettool), or with -fix or
// -diff, it hands over to x/tools' multichecker, which implements the vet
// protocol and fix application; every other run goes through
// go/analysis/checker so the text output can name the analyzer of each
// finding and the exit status can tell findings from failures.
package driver

import (
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/packages"
)

// Exit statuses.
const (
	ExitClean    = 0 // no findings
	ExitFailure  = 1 // packages failed to load or an analysis failed
	ExitUsage    = 2 // bad flag or option value
	ExitFindings = 3 // findings were reported (multichecker's status too)
)

// Main runs the command with args (without the program name) and returns
// the exit status. analyzers are the roots to run: the checks and the
// contract model whose options they share.
func Main(progname string, args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	if handsOver(args) {
		os.Args = append([]string{progname}, args...)
		multichecker.Main(analyzers...) // exits
	}
	r := &runner{progname: progname, analyzers: analyzers, stdout: stdout, stderr: stderr}
	return r.run(args)
}

// handsOver reports whether the run belongs to multichecker: the go vet
// protocol (-V=full, -flags, a .cfg unit) or fix application.
func handsOver(args []string) bool {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "V", "flags", "fix", "diff":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

type runner struct {
	progname  string
	analyzers []*analysis.Analyzer
	stdout    io.Writer
	stderr    io.Writer

	jsonOut bool
	tests   bool
	enabled map[*analysis.Analyzer]*triState
}

func (r *runner) fail(status int, format string, args ...any) int {
	fmt.Fprintf(r.stderr, "%s: %s\n", r.progname, fmt.Sprintf(format, args...))
	return status
}

func (r *runner) run(args []string) int {
	fs := flag.NewFlagSet(r.progname, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&r.jsonOut, "json", false, "emit JSON output in go vet's shape")
	fs.BoolVar(&r.tests, "test", true, "also analyze test files")
	fs.Int("c", -1, "accepted for compatibility with go vet; context lines are not printed")
	r.enabled = make(map[*analysis.Analyzer]*triState)
	for _, a := range r.analyzers {
		ts := new(triState)
		r.enabled[a] = ts
		fs.Var(ts, a.Name, fmt.Sprintf("enable %q analysis", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			r.usage(fs)
			return ExitClean
		}
		return r.fail(ExitUsage, "%v (run '%s help' for the flags)", err, r.progname)
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		r.usage(fs)
		return ExitUsage
	}
	if patterns[0] == "help" {
		return r.help(patterns[1:])
	}
	return r.analyze(patterns)
}

func (r *runner) usage(fs *flag.FlagSet) {
	fmt.Fprintf(r.stderr, "%[1]s checks the retry contract of NATS JetStream consumers.\n\n"+
		"Usage: %[1]s [-flag] [package pattern...]\n\n"+
		"Run '%[1]s help' for the analyzers, '%[1]s help NAME' for one analyzer and its flags.\n", r.progname)
}

// selected applies the -NAME enable flags: if any is true, run only those;
// otherwise run all but those set false.
func (r *runner) selected() []*analysis.Analyzer {
	var keep []*analysis.Analyzer
	anyTrue := slices.ContainsFunc(r.analyzers, func(a *analysis.Analyzer) bool { return *r.enabled[a] == setTrue })
	for _, a := range r.analyzers {
		switch *r.enabled[a] {
		case setTrue:
			keep = append(keep, a)
		case unset:
			if !anyTrue {
				keep = append(keep, a)
			}
		}
	}
	return keep
}

func (r *runner) analyze(patterns []string) int {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: r.tests}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return r.fail(ExitFailure, "cannot load packages: %v", err)
	}
	if len(pkgs) == 0 {
		return r.fail(ExitFailure, "no packages match %s", strings.Join(patterns, " "))
	}
	// Packages that cannot be listed or parsed stop the run. Type errors do
	// not: the checks run despite them (as in an editor) and report what
	// they can, but the run still ends with the failure status, since its
	// findings may be incomplete.
	var fatal, typeErrs []packages.Error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError {
				typeErrs = append(typeErrs, e)
			} else {
				fatal = append(fatal, e)
			}
		}
	})
	if len(fatal) > 0 {
		return r.fail(ExitFailure, "packages failed to load: %s%s", fatal[0], andMore(len(fatal)))
	}
	graph, err := checker.Analyze(r.selected(), pkgs, nil)
	if err != nil {
		return r.fail(ExitFailure, "%v", err)
	}
	if r.jsonOut {
		if err := graph.PrintJSON(r.stdout); err != nil {
			return r.fail(ExitFailure, "%v", err)
		}
	}
	findings, failures := collect(graph)
	for _, f := range failures {
		fmt.Fprintf(r.stderr, "%s: %s\n", r.progname, f)
	}
	if !r.jsonOut {
		printText(r.stdout, findings)
	}
	if len(typeErrs) > 0 {
		fmt.Fprintf(r.stderr, "%s: type errors, findings may be incomplete: %s%s\n", r.progname, typeErrs[0], andMore(len(typeErrs)))
	}
	switch {
	case len(failures) > 0 || len(typeErrs) > 0:
		return ExitFailure
	case len(findings) > 0:
		return ExitFindings
	}
	return ExitClean
}

func andMore(n int) string {
	if n > 1 {
		return fmt.Sprintf(" (and %d more)", n-1)
	}
	return ""
}

// finding is one diagnostic, resolved to positions and deduplicated across
// a package and its test variant.
type finding struct {
	analyzer string
	posn     token.Position
	message  string
	related  []relatedFinding
}

type relatedFinding struct {
	posn    token.Position
	message string
}

func collect(graph *checker.Graph) (findings []finding, failures []string) {
	seen := make(map[string]bool)
	for act := range graph.All() {
		if act.Err != nil {
			msg := fmt.Sprintf("%s: %v", act.Analyzer.Name, act.Err)
			if !seen[msg] {
				seen[msg] = true
				failures = append(failures, msg)
			}
			continue
		}
		if !act.IsRoot {
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			f := finding{analyzer: act.Analyzer.Name, posn: fset.Position(d.Pos), message: d.Message}
			for _, rel := range d.Related {
				f.related = append(f.related, relatedFinding{posn: fset.Position(rel.Pos), message: rel.Message})
			}
			key := fmt.Sprintf("%s|%s|%s", f.posn, f.analyzer, f.message)
			if !seen[key] {
				seen[key] = true
				findings = append(findings, f)
			}
		}
	}
	slices.SortFunc(findings, func(a, b finding) int {
		if c := strings.Compare(a.posn.Filename, b.posn.Filename); c != 0 {
			return c
		}
		if a.posn.Line != b.posn.Line {
			return a.posn.Line - b.posn.Line
		}
		if a.posn.Column != b.posn.Column {
			return a.posn.Column - b.posn.Column
		}
		return strings.Compare(a.analyzer+a.message, b.analyzer+b.message)
	})
	slices.Sort(failures)
	return findings, failures
}

// printText prints file:line:col: analyzer: message, with related
// locations indented below, paths relative to the working directory.
func printText(w io.Writer, findings []finding) {
	wd, _ := os.Getwd()
	rel := func(p token.Position) string {
		if wd != "" {
			if r, err := filepath.Rel(wd, p.Filename); err == nil && !strings.HasPrefix(r, "..") {
				p.Filename = r
			}
		}
		return p.String()
	}
	for _, f := range findings {
		fmt.Fprintf(w, "%s: %s: %s\n", rel(f.posn), f.analyzer, f.message)
		for _, r := range f.related {
			fmt.Fprintf(w, "\t%s: %s\n", rel(r.posn), r.message)
		}
	}
}

// help lists the analyzers with the title of their doc, or prints one
// analyzer's doc and flags.
func (r *runner) help(names []string) int {
	if len(names) == 0 {
		fmt.Fprintf(r.stdout, "%s checks the retry contract of NATS JetStream consumers.\n\nAnalyzers:\n\n", r.progname)
		for _, a := range r.analyzers {
			title, _, _ := strings.Cut(a.Doc, "\n")
			fmt.Fprintf(r.stdout, "  %-15s %s\n", a.Name, strings.TrimPrefix(title, a.Name+": "))
		}
		fmt.Fprintf(r.stdout, "\nFlags: -json, -test=false, -NAME to run only some analyzers, -NAME=false to skip one,\n"+
			"-fix and -diff to apply suggested fixes. Exit status: 0 clean, %d findings, %d load or analysis failure, %d bad flag.\n"+
			"Run '%s help NAME' for an analyzer's documentation and flags.\n", ExitFindings, ExitFailure, ExitUsage, r.progname)
		return ExitClean
	}
	for _, name := range names {
		i := slices.IndexFunc(r.analyzers, func(a *analysis.Analyzer) bool { return a.Name == name })
		if i < 0 {
			return r.fail(ExitUsage, "no analyzer named %q (run '%s help' for the list)", name, r.progname)
		}
		a := r.analyzers[i]
		fmt.Fprintf(r.stdout, "%s\n\n%s\n", a.Name, a.Doc)
		first := true
		a.Flags.VisitAll(func(f *flag.Flag) {
			if first {
				fmt.Fprintf(r.stdout, "\nFlags:\n")
				first = false
			}
			fmt.Fprintf(r.stdout, "  -%s.%s\t%s\n", a.Name, f.Name, f.Usage)
		})
		if a.URL != "" {
			fmt.Fprintf(r.stdout, "\nDocumentation: %s\n", a.URL)
		}
	}
	return ExitClean
}

// triState is an enable flag that remembers whether it was set.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (t *triState) IsBoolFlag() bool { return true }

func (t *triState) String() string {
	switch *t {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (t *triState) Set(s string) error {
	switch s {
	case "true", "1", "t", "T", "TRUE", "True":
		*t = setTrue
	case "false", "0", "f", "F", "FALSE", "False":
		*t = setFalse
	default:
		return fmt.Errorf("want true or false, got %q", s)
	}
	return nil
}
