package driver

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// flagGroup is a group of the command line's own flags, as -h and help
// list them.
type flagGroup struct {
	title string
	names []string
}

// ownFlagGroups returns the command line's own flags by group, in the
// order -h and help list them: what a run prints, what it fixes, what it
// loads, the rest. The analyzers' enable flags and options follow, in
// groups of their own.
func ownFlagGroups() []flagGroup {
	return []flagGroup{
		{"Output", []string{"format", "json", "baseline", "path-prefix"}},
		{"Fixes", []string{"fix", "diff"}},
		{"Loading", []string{"C", "config", "tags", "modfile", "test", "cache"}},
		{"Other", []string{"version", "c"}},
	}
}

// printHelp prints what -h and help print: the usage, every flag in one
// line each, by group (staticcheck's layout: the flag, its argument, its
// usage and default), and the exit statuses.
func (r *runner) printHelp(w io.Writer) {
	fmt.Fprintf(w, "%[1]s checks the retry contract of NATS JetStream consumers.\n\n"+
		"Usage: %[1]s [-flag] [package pattern...]\n"+
		"       go vet -vettool=$(which %[1]s) [package pattern...]\n", r.progname)
	type line struct{ left, right string }
	var groups [][]line
	var titles []string
	add := func(title string, lines []line) {
		titles = append(titles, title)
		groups = append(groups, lines)
	}
	for _, g := range ownFlagGroups() {
		var lines []line
		for _, name := range g.names {
			if f := r.flagSet.Lookup(name); f != nil {
				left, right := flagLine(f)
				lines = append(lines, line{left, right})
			}
		}
		add(g.title, lines)
	}
	var enable, options []line
	for _, a := range r.analyzers {
		title, _, _ := strings.Cut(a.Doc, "\n")
		enable = append(enable, line{"-" + a.Name, strings.TrimPrefix(title, a.Name+": ")})
		a.Flags.VisitAll(func(f *flag.Flag) {
			if g := r.flagSet.Lookup(a.Name + "." + f.Name); g != nil {
				left, right := flagLine(g)
				options = append(options, line{left, right})
			}
		})
	}
	add("Analyzers (-NAME runs only the analyzers named so; -NAME=false runs all but those)", enable)
	add("Analyzer options (also in .retrylint.yaml, as NAME: {option: value})", options)
	for i, g := range groups {
		width := 0
		for _, l := range g {
			width = max(width, len(l.left))
		}
		fmt.Fprintf(w, "\n%s:\n", titles[i])
		for _, l := range g {
			fmt.Fprintf(w, "  %-*s  %s\n", width, l.left, l.right)
		}
	}
	fmt.Fprintf(w, "\nExit status: %d clean, %d findings, %d packages failed to load or an analysis failed, %d bad flag or configuration.\n"+
		"Run '%s help NAME' for an analyzer's documentation and options.\n",
		ExitClean, ExitFindings, ExitFailure, ExitUsage, r.progname)
}

// flagLine returns a flag's line: "-name arg" and its usage with the
// default (when it is not the zero value and the usage does not give it).
func flagLine(f *flag.Flag) (left, right string) {
	arg, usage := flag.UnquoteUsage(f)
	left = "-" + f.Name
	if arg != "" {
		left += " " + arg
	}
	if !slices.Contains([]string{"", "false", "0", "unset"}, f.DefValue) && !strings.Contains(usage, "(default") {
		usage += fmt.Sprintf(" (default %s)", f.DefValue)
	}
	return left, usage
}

// help prints the usage and flags (no names), or each named analyzer's
// documentation and options.
func (r *runner) help(names []string) int {
	if len(names) == 0 {
		r.printHelp(r.stdout)
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
			g := *f
			g.Name = a.Name + "." + f.Name
			left, right := flagLine(&g)
			fmt.Fprintf(r.stdout, "  %s\t%s\n", left, right)
		})
		if a.URL != "" {
			fmt.Fprintf(r.stdout, "\nDocumentation: %s\n", a.URL)
		}
	}
	return ExitClean
}
