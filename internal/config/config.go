// Package config reads .retrylint.yaml, the one configuration file every
// driver shares: the command line, go vet -vettool and the golangci-lint
// plugin (whose own settings override it).
//
// The file's top-level keys are analyzer names, each holding that
// analyzer's options under the command line's flag names, plus disable,
// a list of checks not to run, and exclude, path globs of files no check
// reports on (each check has an exclude option of its own too):
//
//	retrycontract:
//	  dlq-funcs: [example.com/bus.Sink.Park]
//	  dlq-pattern: "(?i)(dlq|parking)"
//	barenak:
//	  unclassified: false
//	  exclude: [internal/legacy]
//	disable: [poisonack]
//	exclude: [gen/**, "**/*_mock.go"]
//
// Exclude globs are relative to the file's directory (see globs.Globs
// for what they match); a malformed one, or one whose path up to its
// first wildcard does not exist, is an error: an exclusion that excludes
// nothing is stale.
//
// A file is turned into command-line arguments (-retrycontract.dlq-funcs=...,
// -barenak.unclassified=false, -poisonack=false) that go before the user's own,
// so that flags given on the command line win. Every error names the
// file and line: an unknown analyzer or option, a value of the wrong kind,
// a value the option refuses. Relative paths of retrycontract's profiles
// are relative to the file's own directory, wherever the run works.
package config

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"gopkg.in/yaml.v3"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/internal/globs"
	"github.com/retrylint/retrylint/internal/spell"
)

// FileName is the configuration file's name.
const FileName = ".retrylint.yaml"

// Find returns the configuration file for dir: dir's own, or the nearest
// in a directory above it. It returns "" when there is none.
func Find(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Args reads the file at path and returns it as command-line arguments
// for analyzers. A missing file is an error.
func Args(path string, analyzers []*analysis.Analyzer) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, analyzers)
}

// Parse returns data, the content of the file at path, as command-line
// arguments for analyzers (see Args). path names the file in errors and
// is the directory relative profile paths are resolved against.
func Parse(path string, data []byte, analyzers []*analysis.Analyzer) ([]string, error) {
	return parse(path, data, analyzers)
}

// ArgsFor finds the configuration file for dir (see Find) and returns it as
// arguments, with the file's path; none when there is no file.
func ArgsFor(dir string, analyzers []*analysis.Analyzer) (args []string, path string, err error) {
	path = Find(dir)
	if path == "" {
		return nil, "", nil
	}
	args, err = Args(path, analyzers)
	return args, path, err
}

func parse(path string, data []byte, analyzers []*analysis.Analyzer) ([]string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil // empty file
	}
	root := doc.Content[0]
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, n.Line, fmt.Sprintf(format, args...))
	}
	if root.Kind != yaml.MappingNode {
		return nil, at(root, "want a mapping of analyzer names to options")
	}
	byName := make(map[string]*analysis.Analyzer)
	var names []string
	for _, a := range analyzers {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	var args []string
	excludeAt := 0 // the line of the file's top-level exclude, if any
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i], root.Content[i+1]
		if key.Value == contract.FlagExclude {
			text, err := excludeGlobs(path, value, at)
			if err != nil {
				return nil, err
			}
			excludeAt = key.Line
			args = append(args, "-"+contract.Name+"."+contract.FlagExclude+"="+text)
			continue
		}
		if key.Value == "disable" {
			var list []string
			if err := value.Decode(&list); err != nil {
				return nil, at(value, "disable: want a list of analyzer names")
			}
			for j, name := range list {
				if byName[name] == nil {
					return nil, at(value.Content[j], "disable: no analyzer named %q (analyzers: %s)", name, strings.Join(names, ", "))
				}
				args = append(args, "-"+name+"=false")
			}
			continue
		}
		a := byName[key.Value]
		if a == nil {
			fix := ""
			if near := spell.Nearest(key.Value, append(slices.Clone(names), "disable", "exclude")); near != "" {
				fix = fmt.Sprintf("; correct it to %s", near)
			}
			return nil, at(key, "unknown key %q%s: want an analyzer name (%s), disable or exclude", key.Value, fix, strings.Join(names, ", "))
		}
		if value.Kind != yaml.MappingNode {
			return nil, at(value, "%s: want a mapping of option names to values", a.Name)
		}
		for j := 0; j+1 < len(value.Content); j += 2 {
			opt, v := value.Content[j], value.Content[j+1]
			f := a.Flags.Lookup(opt.Value)
			if err := Removed(a.Name, opt.Value); f == nil && err != nil {
				return nil, at(opt, "%v", err)
			}
			if f == nil {
				return nil, at(opt, "%s has no option %q (options: %s)", a.Name, opt.Value, strings.Join(options(a), ", "))
			}
			if opt.Value == contract.FlagExclude {
				if a.Name == contract.Name && excludeAt > 0 {
					return nil, at(opt, "%s.%s: the file's exclude (line %d) says it already", a.Name, opt.Value, excludeAt)
				}
				text, err := excludeGlobs(path, v, at)
				if err != nil {
					return nil, err
				}
				args = append(args, "-"+a.Name+"."+opt.Value+"="+text)
				continue
			}
			text, err := scalar(v)
			if err != nil {
				return nil, at(v, "%s.%s: %v", a.Name, opt.Value, err)
			}
			if a.Name == contract.Name && opt.Value == contract.FlagProfiles {
				text = resolvePaths(path, text)
			}
			if err := check(a, f, text); err != nil {
				return nil, at(v, "%s.%s: %v", a.Name, opt.Value, err)
			}
			if a.Name == contract.Name && (opt.Value == contract.FlagDLQFuncs || opt.Value == contract.FlagDecodeFuncs) {
				text = withOrigins(path, v)
			}
			args = append(args, "-"+a.Name+"."+opt.Value+"="+text)
		}
	}
	return args, nil
}

// resolvePaths makes the relative paths of a comma-separated list
// absolute against the directory of the file at path: a profile named in
// the file is found from every directory a run may work in (a
// subdirectory, -C, each go vet unit's package directory). Paths are
// split as the profiles flag splits them.
func resolvePaths(path, list string) string {
	dir := filepath.Dir(path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	var out []string
	for p := range strings.SplitSeq(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		out = append(out, p)
	}
	return strings.Join(out, ",")
}

// excludeGlobs returns the exclude globs of v (a glob or a list of them) as flag
// text, each made absolute against the directory of the file at path. A
// malformed glob is an error, and so is one that matches nothing because
// the path before its first wildcard does not exist (a typo, or a
// directory since removed: an exclusion that excludes nothing is stale).
func excludeGlobs(path string, v *yaml.Node, at func(*yaml.Node, string, ...any) error) (string, error) {
	entries := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		entries = v.Content
	}
	dir := filepath.Dir(path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	var out []string
	for _, e := range entries {
		if e.Kind != yaml.ScalarNode || strings.TrimSpace(e.Value) == "" {
			return "", at(e, "exclude: want a path glob or a list of them")
		}
		glob := strings.TrimSpace(e.Value)
		if err := globs.CheckGlob(glob); err != nil {
			return "", at(e, "exclude: %v", err)
		}
		if !filepath.IsAbs(glob) {
			glob = filepath.Join(dir, glob)
		}
		if fixed := globs.Fixed(glob); fixed != "" {
			if _, err := os.Stat(fixed); err != nil {
				return "", at(e, "exclude: %q matches nothing: %s does not exist; correct or remove the entry", e.Value, fixed)
			}
		}
		out = append(out, glob)
	}
	return strings.Join(out, ","), nil
}

// withOrigins returns the dlq-funcs (or decode-funcs) entries of v as flag text, each with
// the file and line that named it (import/path.Func@file:line), for the
// message that reports an entry naming nothing (the meta check, and the
// command line's check before analysis).
func withOrigins(path string, v *yaml.Node) string {
	entries := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		entries = v.Content
	}
	var parts []string
	for _, e := range entries {
		for part := range strings.SplitSeq(e.Value, ",") {
			if part = strings.TrimSpace(part); part != "" {
				parts = append(parts, fmt.Sprintf("%s@%s:%d", part, path, e.Line))
			}
		}
	}
	return strings.Join(parts, ",")
}

// scalar returns a value as flag text: a scalar as written, a list of
// scalars joined by commas.
func scalar(v *yaml.Node) (string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Value, nil
	case yaml.SequenceNode:
		var parts []string
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				return "", errors.New("want a list of values")
			}
			parts = append(parts, e.Value)
		}
		return strings.Join(parts, ","), nil
	}
	return "", errors.New("want a value or a list of values")
}

// check validates text for the flag without setting it: the contract
// model's options on a fresh configuration, other options by their kind.
// A bad value is then reported with the file's line.
func check(a *analysis.Analyzer, f *flag.Flag, text string) error {
	if a.Name == contract.Name {
		return contract.DefaultConfig().SetOption(f.Name, text)
	}
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	fs.SetOutput(nopWriter{})
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		fs.Bool(f.Name, false, "")
	} else if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case int:
			fs.Int(f.Name, 0, "")
		case float64:
			fs.Float64(f.Name, 0, "")
		default:
			return nil // the command line's parse reports it
		}
	} else {
		return nil
	}
	return fs.Set(f.Name, text)
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func options(a *analysis.Analyzer) []string {
	var out []string
	a.Flags.VisitAll(func(f *flag.Flag) { out = append(out, f.Name) })
	slices.Sort(out)
	return out
}

// Apply sets the options args (as Args returns them) name on analyzers,
// and returns the analyzers args disable. It is for drivers that take no
// command line: the golangci-lint plugin and the gopls build.
func Apply(args []string, analyzers []*analysis.Analyzer) (disabled []string, err error) {
	byName := make(map[string]*analysis.Analyzer)
	for _, a := range analyzers {
		byName[a.Name] = a
	}
	for _, arg := range args {
		key, value, _ := strings.Cut(strings.TrimPrefix(arg, "-"), "=")
		name, opt, isOption := strings.Cut(key, ".")
		a := byName[name]
		switch {
		case a == nil:
			return disabled, fmt.Errorf("no analyzer %q", name)
		case !isOption:
			if value == "false" {
				disabled = append(disabled, name)
			}
		default:
			if err := Removed(name, opt); err != nil && a.Flags.Lookup(opt) == nil {
				return disabled, err
			}
			if err := a.Flags.Set(opt, value); err != nil {
				return disabled, fmt.Errorf("%s.%s: %w", name, opt, err)
			}
		}
	}
	return disabled, nil
}
