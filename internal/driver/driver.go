// Package driver is retrylint's command line: it loads packages, runs the
// checks and prints findings. Invoked by go vet (-vettool) it hands over
// to x/tools' multichecker, which implements the vet protocol; -fix and
// -diff start multichecker as a child to apply or print the fixes, then
// report what remains (fix.go). Every report goes through
// go/analysis/checker so the text output can name the analyzer of each
// finding and the exit status can tell findings from failures, and
// through the package cache (pkgcache.go), whose doc says why it never
// replays a stale result.
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
	"time"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/internal/config"
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
	start := time.Now()
	if asked, full := versionRequest(args); asked {
		return printVersion(stdout, progname, full)
	}
	if os.Getenv(handoverEnv) != "" {
		// The run applying fixes that the command line started (fix.go):
		// its arguments are complete, the configuration file's included.
		os.Args = append([]string{progname}, args...)
		multichecker.Main(analyzers...) // exits
	}
	args, config, status, ok := withConfig(progname, args, analyzers, stderr)
	if !ok {
		return status
	}
	if handsOver(args) {
		if vetUnit(args) {
			quietFlagErrors(args[len(args)-1], stderr)
		}
		os.Args = append([]string{progname}, args...)
		multichecker.Main(analyzers...) // exits
	}
	r := &runner{progname: progname, analyzers: analyzers, stdout: stdout, stderr: stderr, start: start, config: config}
	return r.run(args)
}

// handsOver reports whether the run belongs to multichecker: the go vet
// protocol (-V=full, -flags, a .cfg unit).
func handsOver(args []string) bool {
	for _, a := range args {
		switch flagName(a) {
		case "V", "flags":
			return true
		}
	}
	return vetUnit(args)
}

// vetUnit reports whether the run is go vet's, on one unit (a .cfg file).
func vetUnit(args []string) bool {
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

type runner struct {
	progname  string
	analyzers []*analysis.Analyzer
	stdout    io.Writer
	stderr    io.Writer

	start    time.Time   // when the run began (settled)
	config   *configFile // the configuration file the arguments came from, if any
	flagSet  *flag.FlagSet
	profiles *profileFlag // -retrycontract.profiles

	jsonOut  bool
	format   string // text, json, sarif or github
	tags     string // -tags, for the build
	modfile  string // -modfile, for the build
	baseline string // -baseline: findings recorded there are not reported
	prefix   string // -path-prefix: SARIF and GitHub paths are relative to the working directory, after it
	dir      string // -C: the directory to run in
	tests    bool
	fix      bool // -fix: apply the suggested fixes, then report what remains (fix.go)
	diff     bool // -diff: with -fix, print the fixes as a diff instead
	afterFix bool // the fixes were applied: what is reported is what they did not cover
	fixLeft  bool // the fix run could not apply every fix (conflicts)
	cache    bool // replay the results of unchanged packages (pkgcache.go)
	enabled  map[*analysis.Analyzer]*triState

	baselineEntries []baselineEntry // the -baseline file's, read before loading
	recordBaseline  bool            // -baseline names no file yet: this run records it

	stats  cacheStats        // where the root packages' results came from
	env    map[string]string // the go command's environment (runner.goEnv)
	envErr error
}

func (r *runner) fail(status int, format string, args ...any) int {
	fmt.Fprintf(r.stderr, "%s: %s\n", r.progname, fmt.Sprintf(format, args...))
	return status
}

// failEmpty is fail for a run that has begun: under -json and
// -format=sarif it first prints an empty document, so that what a CI step
// uploads is always valid.
func (r *runner) failEmpty(status int, format string, args ...any) int {
	switch r.format {
	case formatJSON:
		printJSON(r.stdout, nil)
	case formatSARIF:
		printSARIF(r.stdout, r.outputPaths(), r.selected(), nil)
	}
	return r.fail(status, format, args...)
}

func (r *runner) run(args []string) int {
	patterns, status, ok := r.parse(args)
	if !ok {
		return status
	}
	if patterns[0] == "help" {
		return r.help(patterns[1:])
	}
	if r.dir != "" {
		if err := os.Chdir(r.dir); err != nil {
			return r.fail(ExitUsage, "-C: %v", err)
		}
	}
	if status, ok := r.checkBaseline(); !ok {
		return status
	}
	cfg := r.loadConfig()
	flags := args[:len(args)-len(patterns)]
	if r.fix {
		return r.fixThenReport(cfg, patterns, flags)
	}
	return r.analyze(cfg, patterns, flags)
}

// loadConfig is the go/packages configuration of the run's load.
func (r *runner) loadConfig() *packages.Config {
	// NeedModule: the package cache's keys name the module of each package.
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: r.tests}
	if r.tags != "" {
		cfg.BuildFlags = append(cfg.BuildFlags, "-tags="+r.tags)
	}
	if r.modfile != "" {
		cfg.BuildFlags = append(cfg.BuildFlags, "-modfile="+r.modfile)
	}
	return cfg
}

// parse parses the flags; when they are not all right, or leave nothing
// to do, it has said so and returns the exit status and false.
func (r *runner) parse(args []string) (patterns []string, status int, ok bool) {
	fs := flag.NewFlagSet(r.progname, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&r.jsonOut, "json", false, "emit JSON output in go vet's shape (-format=json)")
	r.format = formatText
	fs.Var(formatValue{&r.format}, "format", "output `format`: text, json (go vet's shape), sarif (SARIF 2.1.0) or github (workflow annotations)")
	fs.BoolVar(&r.tests, "test", true, "also analyze test files")
	fs.StringVar(&r.dir, "C", "", "change to `dir` before loading (a module below the repository root, as go -C)")
	fs.StringVar(&r.tags, "tags", "", "comma-separated build `tags`, as go build -tags")
	fs.StringVar(&r.baseline, "baseline", "", "a baseline `file`: if missing, record the findings there; if present, report only findings it does not hold")
	fs.StringVar(&r.prefix, "path-prefix", "", "in -format=sarif and github output, name files by their path from the working directory after `prefix` (default: their path from the git work tree's top level)")
	fs.StringVar(&r.modfile, "modfile", "", "an alternate go.mod `file`, as go build -modfile (go.sum beside it)")
	fs.Int("c", -1, "accepted for compatibility with go vet; context lines are not printed")
	fs.BoolVar(&r.cache, "cache", true, "replay the results of unchanged packages (same binary, flags, configuration, environment and sources); -cache=false analyzes anew")
	fs.BoolVar(&r.fix, "fix", false, "apply the suggested fixes, then report the findings that remain")
	fs.BoolVar(&r.diff, "diff", false, "print the suggested fixes as a unified diff instead of applying them (implies -fix)")
	// Read before parsing (withConfig, versionRequest), here for -h and help.
	fs.String("config", "", "the configuration `file` (default: .retrylint.yaml in the directory the run works in, or the nearest above)")
	fs.Bool("version", false, "print the version (-version=full: with the binary's hash) and exit")
	r.enabled = make(map[*analysis.Analyzer]*triState)
	for _, a := range r.analyzers {
		ts := new(triState)
		r.enabled[a] = ts
		fs.Var(ts, a.Name, fmt.Sprintf("enable %q analysis", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) {
			v := f.Value
			if a.Name == contract.Name && f.Name == contract.FlagProfiles {
				r.profiles = &profileFlag{Value: v}
				v = r.profiles
			}
			fs.Var(v, a.Name+"."+f.Name, f.Usage)
		})
	}
	r.flagSet = fs
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			r.printHelp(r.stderr)
			return nil, ExitClean, false
		}
		if name, opt, ok := strings.Cut(strings.TrimPrefix(err.Error(), "flag provided but not defined: -"), "."); ok {
			if removed := config.Removed(name, opt); removed != nil {
				err = removed
			}
		}
		return nil, r.fail(ExitUsage, "%v (run '%s help' for the flags)", err, r.progname), false
	}
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if r.jsonOut {
		r.format = formatJSON
	}
	if r.baseline != "" && r.format == formatJSON {
		return nil, r.fail(ExitUsage, "-baseline does not filter -json output; use -format=text, sarif or github"), false
	}
	if r.diff {
		r.fix = true // -diff alone means -fix -diff
		for _, name := range []string{"json", "format", "baseline"} {
			if set[name] {
				return nil, r.fail(ExitUsage, "-diff prints the fixes as a diff, not the findings: it takes no -%s", name), false
			}
		}
	}
	patterns = fs.Args()
	if len(patterns) == 0 {
		fmt.Fprintf(r.stderr, "%[1]s checks the retry contract of NATS JetStream consumers.\n\n"+
			"Usage: %[1]s [-flag] [package pattern...]\n\n"+
			"Run '%[1]s -h' or '%[1]s help' for the flags, '%[1]s help NAME' for one analyzer.\n", r.progname)
		return nil, ExitUsage, false
	}
	return patterns, 0, true
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

// analyze loads the packages matching patterns and runs the selected
// analyzers on what loaded, or replays the results of the packages the
// package cache holds (pkgcache.go): the output is the same.
//
// A package that fails to load does not stop the run. A package fails to
// load when it has an error of its own that is not a type error: go list
// could not resolve it (a directory without Go files, a module the proxy
// cannot serve, a replacement directory that does not exist), or it cannot
// be parsed. Which packages are analyzed:
//
//   - every package that matched and has no such error of its own;
//   - including those that import a package that failed to load, directly
//     or not: go/packages still type-checks them, with the missing import
//     as a type error, so they are analyzed as packages with type errors
//     are (the checks run despite errors, as in an editor). A dependency
//     that failed to load is handed to the fact-producing analyzers as it
//     is: without syntax when it could not be listed, with the parser's
//     partial syntax when it could not be parsed (the analyzers tolerate
//     errors and turn a panic into an analysis failure);
//   - not a matched package that failed to load itself: it is skipped, with
//     a notice. This includes packages with syntax errors, whose findings
//     would be judged on partial syntax;
//   - not a package some dependency of which lacks type information
//     (go/packages fills it in for every package it loads from source, so
//     this only guards the checks against nil types.Package).
//
// What is printed: the findings of the packages analyzed (as text, or under
// -json as one go vet-shaped JSON document on stdout, as always), and on
// stderr one line per failure to load, naming the package and its failed
// import, as in
//
//	retrylint: example.com/m/bad: could not import example.com/m/empty: no required module provides package example.com/m/empty
//	retrylint: example.com/m/empty: not analyzed: no Go files in /src/m/empty
//
// without go list's wrapping or the "-: " of an unknown position. The type
// error go/types reports for the failed import itself ("could not import
// ...") is not repeated on the type-errors line. The exit status is
// ExitFailure when anything failed to load, even with findings: like type
// errors, a failed load means the findings may be incomplete.
func (r *runner) analyze(cfg *packages.Config, patterns, flags []string) int {
	c := r.newPkgCache(flags)
	if c != nil && c.seen() {
		if out, ok := r.analyzeCached(c, cfg, patterns); ok {
			r.stats.write()
			return r.report(out)
		}
	}
	var stage *stager
	if c != nil {
		stage = c.newStager()
	}
	out, status, ok := r.analyzeAll(cfg, patterns, stage)
	if !ok {
		stage.discard()
		return status
	}
	r.stats = cacheStats{Analyzed: idsOf(out.roots), Streamed: out.facts != nil, Silent: out.silent}
	r.stats.write()
	switch {
	case c == nil:
	case !out.clean():
		stage.discard()
	case out.facts != nil: // streamed: its entries are staged
		stage.commit(out.roots)
	default:
		stage.discard()
		c.store(out.roots, out.results, nil, ownFacts(out.graph))
	}
	return r.report(out)
}

// outcome is what a run found, before it is reported.
type outcome struct {
	roots    []*packages.Package // the root packages analyzed (not replayed)
	results  []pkgResult         // by root package, sorted by ID
	notices  []string            // failures to load (see triage)
	warnings []string            // what was left out of the analysis, said on stderr; not failures
	typeErrs []packages.Error
	failures []string              // analysis failures
	graph    *checker.Graph        // when everything was analyzed by the checker, for -json's errors
	facts    map[string]*factEntry // every package's own facts, from a streamed run (stream.go)
	silent   int                   // how many dependencies the streamed run found silent
}

// clean reports whether the outcome is the analysis of packages that
// loaded without errors and raised no analysis failure.
func (o *outcome) clean() bool {
	return len(o.notices) == 0 && len(o.typeErrs) == 0 && len(o.failures) == 0
}

// analyzeAll loads the packages matching patterns and runs the selected
// analyzers on every root package; ok is false when it could not, and
// said why, with the exit status.
func (r *runner) analyzeAll(cfg *packages.Config, patterns []string, stage *stager) (out *outcome, status int, ok bool) {
	pkgs, stream := r.loadStreamed(cfg, patterns, stage)
	if stream != nil {
		return r.outcomeOf(pkgs, nil, func(l loaded) (*outcome, error) {
			return &outcome{roots: l.roots, results: stream.results, facts: stream.facts, silent: stream.silent}, nil
		})
	}
	pkgs, err := packages.Load(cfg, patterns...)
	var warnings []string
	if err != nil && cfg.Tests && untidyGoMod(err) {
		// go.mod may be untidy only for the tests' imports: go vet stops
		// there; retrylint analyzes the packages without their test files
		// and says so (the exit status is the findings').
		noTests := *cfg
		noTests.Tests = false
		if p, err2 := packages.Load(&noTests, patterns...); err2 == nil {
			warnings = append(warnings, "analyzed without the test files, whose imports need go.mod updates: "+cleanLoadError(err))
			pkgs, err = p, nil
		}
	}
	if err != nil {
		return nil, r.failEmpty(ExitFailure, "cannot load packages: %s", cleanLoadError(err)), false
	}
	if len(pkgs) == 0 {
		return nil, r.failEmpty(ExitFailure, "no packages match %s", strings.Join(patterns, " ")), false
	}
	return r.outcomeOf(pkgs, warnings, func(l loaded) (*outcome, error) {
		graph, err := checker.Analyze(r.selected(), l.roots, nil)
		if err != nil {
			for _, n := range l.notices {
				fmt.Fprintf(r.stderr, "%s: %s\n", r.progname, n)
			}
			return nil, err
		}
		return &outcome{roots: l.roots, results: resultsOf(graph), failures: failuresOf(graph), graph: graph}, nil
	})
}

// outcomeOf checks the loaded packages, sorts them (triage) and returns
// the outcome analyze makes of them.
func (r *runner) outcomeOf(pkgs []*packages.Package, warnings []string, analyze func(loaded) (*outcome, error)) (*outcome, int, bool) {
	if missing, option := missingDLQFuncs(r.analyzers, pkgs); len(missing) > 0 {
		return nil, r.failEmpty(ExitUsage, "-%s.%s names what does not exist (a typo hides findings): %s",
			contract.Name, option, strings.Join(missing, "; ")), false
	}
	l := triage(pkgs)
	out, err := analyze(l)
	if err != nil {
		return nil, r.failEmpty(ExitFailure, "%v", err), false
	}
	out.warnings, out.notices, out.typeErrs = warnings, l.notices, l.typeErrs
	return out, 0, true
}

// report prints the outcome in the run's format and returns the exit
// status.
func (r *runner) report(out *outcome) int {
	for _, n := range slices.Concat(out.warnings, out.notices) {
		fmt.Fprintf(r.stderr, "%s: %s\n", r.progname, n)
	}
	if r.format == formatJSON {
		// The graph's own JSON carries the analysis failures; printJSON
		// prints the same for a run without them.
		printOut := func() error { return printJSON(r.stdout, out.results) }
		if len(out.failures) > 0 {
			printOut = func() error { return out.graph.PrintJSON(r.stdout) }
		}
		if err := printOut(); err != nil {
			return r.fail(ExitFailure, "%v", err)
		}
	}
	findings := findingsOf(out.results)
	for _, f := range out.failures {
		fmt.Fprintf(r.stderr, "%s: %s\n", r.progname, f)
	}
	if r.baseline != "" {
		wd, _ := os.Getwd()
		if r.recordBaseline {
			if err := writeBaseline(r.baseline, wd, findings); err != nil {
				return r.failEmpty(ExitFailure, "-baseline: %v", err)
			}
			fmt.Fprintf(r.stderr, "%s: recorded %d finding(s) in %s; later runs report only new ones\n", r.progname, len(findings), r.baseline)
			findings = nil
		} else {
			findings = newSince(r.baselineEntries, wd, findings)
		}
	}
	switch r.format {
	case formatText:
		printText(r.stdout, findings)
	case formatGitHub:
		printGitHub(r.stdout, r.outputPaths(), findings)
	case formatSARIF:
		if err := printSARIF(r.stdout, r.outputPaths(), r.selected(), findings); err != nil {
			return r.fail(ExitFailure, "%v", err)
		}
	}
	switch {
	case r.afterFix && r.fixLeft && len(findings) > 0:
		fmt.Fprintf(r.stderr, "%s: fixes applied; %d finding(s) above remain, some with a fix that conflicted with another: run -fix again\n", r.progname, len(findings))
	case r.afterFix && len(findings) > 0:
		fmt.Fprintf(r.stderr, "%s: fixes applied; %d finding(s) above have no suggested fix and remain\n", r.progname, len(findings))
	}
	// Type errors do not stop the checks, but the run still ends with the
	// failure status, since its findings may be incomplete.
	if len(out.typeErrs) > 0 {
		fmt.Fprintf(r.stderr, "%s: type errors, findings may be incomplete: %s%s\n", r.progname, out.typeErrs[0], andMore(len(out.typeErrs)))
	}
	switch {
	case len(out.notices) > 0 || len(out.failures) > 0 || len(out.typeErrs) > 0:
		return ExitFailure
	case len(findings) > 0:
		return ExitFindings
	}
	return ExitClean
}

// loaded is what triage makes of a load.
type loaded struct {
	roots    []*packages.Package // the matched packages to analyze
	notices  []string            // one line per failure to load, sorted
	typeErrs []packages.Error    // type errors not caused by a failure to load
}

// triage sorts the loaded packages (see analyze): it keeps the matched
// packages that can be analyzed and describes, one line each, the packages
// that failed to load and where they were imported.
func triage(pkgs []*packages.Package) loaded {
	var l loaded
	// failed holds the errors of its own of each package that failed to
	// load; all the packages of the import graph, in dependency order.
	failed := make(map[*packages.Package][]packages.Error)
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		all = append(all, p)
		for _, e := range p.Errors {
			if e.Kind != packages.TypeError {
				failed[p] = append(failed[p], e)
			}
		}
	})
	notices := make(map[string]bool)
	notice := func(format string, args ...any) { notices[fmt.Sprintf(format, args...)] = true }

	for _, p := range all {
		if _, ok := failed[p]; ok {
			continue // its own failure is reported; its type errors follow from it
		}
		var failedImports []string // as go/types names them in "could not import"
		for path, imp := range p.Imports {
			errs, ok := failed[imp]
			if !ok {
				continue
			}
			failedImports = append(failedImports, path)
			if errs[0].Kind == packages.ParseError {
				notice("%s: imports %s, which has syntax errors: %s", pkgName(p), pkgName(imp), describe(errs, false))
			} else {
				notice("%s: could not import %s: %s", pkgName(p), pkgName(imp), describe(errs, false))
			}
		}
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && !slices.ContainsFunc(failedImports, func(path string) bool {
				return strings.HasPrefix(e.Msg, "could not import "+path+" (")
			}) {
				l.typeErrs = append(l.typeErrs, e)
			}
		}
	}

	// untyped returns p or a dependency of p that lacks the type
	// information the checks need, or nil.
	untypedOf := make(map[*packages.Package]*packages.Package)
	var untyped func(p *packages.Package) *packages.Package
	untyped = func(p *packages.Package) *packages.Package {
		if u, seen := untypedOf[p]; seen {
			return u
		}
		var u *packages.Package
		if p.Types == nil || p.TypesInfo == nil || p.Fset == nil || p.TypesSizes == nil {
			u = p
		}
		for _, imp := range p.Imports {
			if u != nil {
				break
			}
			u = untyped(imp)
		}
		untypedOf[p] = u // the import graph is acyclic
		return u
	}
	for _, p := range pkgs {
		if errs, ok := failed[p]; ok {
			notice("%s: not analyzed: %s", pkgName(p), describe(errs, true))
		} else if u := untyped(p); u != nil {
			notice("%s: not analyzed: no type information for %s", pkgName(p), pkgName(u))
		} else {
			l.roots = append(l.roots, p)
		}
	}
	for n := range notices {
		l.notices = append(l.notices, n)
	}
	slices.Sort(l.notices)
	return l
}

// pkgName names a package by its path, the same for all its test
// variants, or by its ID when go list could not resolve a path.
func pkgName(p *packages.Package) string {
	if p.PkgPath != "" {
		return p.PkgPath
	}
	return p.ID
}

// describe makes one line of a failed package's errors: the first, after
// its position if it has one and withPos is set or it is a parse error.
// (The position of a list error of a dependency is its import, in another
// package.) Of go list's advice on the following lines, the command that
// fixes a missing module is kept: "no required module provides package
// P; to add it: go get P".
func describe(errs []packages.Error, withPos bool) string {
	e := errs[0]
	msg, rest, _ := strings.Cut(e.Msg, "\n")
	msg = strings.TrimSuffix(msg, ":")
	if m, ok := strings.CutSuffix(msg, "; to add it"); ok {
		msg = m
		if next, _, _ := strings.Cut(strings.TrimSpace(rest), "\n"); strings.HasPrefix(next, "go get ") {
			msg += "; to add it: " + strings.TrimSpace(next)
		}
	}
	if (withPos || e.Kind == packages.ParseError) && e.Pos != "" && e.Pos != "-" {
		msg = relPos(e.Pos) + ": " + msg
	}
	return msg + andMore(len(errs))
}

// relPos makes the file of a file:line:col position relative to the
// working directory, as in the findings.
func relPos(pos string) string {
	file, lineCol := pos, ""
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			return pos
		}
		file, lineCol = file[:i], file[i:]+lineCol
	}
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(file) {
		if r, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(r, "..") {
			return r + lineCol
		}
	}
	return pos
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
	end      token.Position // posn when the diagnostic has no end
	message  string
	related  []relatedFinding
	fixes    []jsonSuggestedFix
}

type relatedFinding struct {
	posn    token.Position
	end     token.Position
	message string
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

// cleanLoadError is a go/packages error as one line: go list's first
// message, without go/packages' "err: exit status 1: stderr: " wrapping
// and go's "go: " prefix. A message that ends in a colon has its reason
// on the next line (inconsistent vendoring lists its reasons so): the
// first reason is kept.
func cleanLoadError(err error) string {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, "stderr: "); ok {
		msg = after
	}
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	first := strings.TrimPrefix(strings.TrimSpace(lines[0]), "go: ")
	if strings.HasSuffix(first, ":") {
		for _, l := range lines[1:] {
			if l = strings.TrimSpace(l); l != "" {
				first += " " + l
				break
			}
		}
	}
	return first
}

// untidyGoMod reports whether a load failed because go.mod needs updates
// ("updates to go.mod needed"), which a module untidy only for its tests'
// imports reports when the tests are loaded.
func untidyGoMod(err error) bool {
	return strings.Contains(err.Error(), "updates to go.mod needed")
}
