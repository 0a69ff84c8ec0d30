package suite

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/directives"
	"github.com/retrylint/retrylint/internal/config"
)

// PerModule returns the checks and the meta check for a driver that
// analyzes the packages of several modules in one long-lived process and
// has no command line: the gopls build. Each package is analyzed with the
// configuration of the module it belongs to, the .retrylint.yaml nearest
// above its directory (config.Find), read when the package is analyzed,
// not once from the directory the process started in.
//
// The analyzers are dispatchers with the checks' names, results and fact
// types: a contract model named like the real one builds, in its Run, the
// analyzers of the package's configuration and runs their model on the
// package, and each check runs that configuration's check on its result.
// A check the file disables reports nothing there. Building them per
// package (a YAML file parsed, a few analyzers made) costs little next to
// the model's run, and keeps nothing shared between packages, which gopls
// analyzes in parallel; the facts cross packages by their types, which
// every configuration shares.
//
// A configuration file that does not load (a typo, an unknown check, a
// bad value) must not stop the editor: no check runs on the packages it
// governs, and the meta check reports the error, naming the file and
// line, once per package, at the package clause of its first file (a
// diagnostic cannot stand in a YAML file through go/analysis). Everything
// else of the editor keeps working, and fixing the file brings the checks
// back.
//
// The driver must make ConfigKey part of its cache key for a package's
// analysis (the gopls build does), or results computed under an older
// file are served after the file changed.
func PerModule() []*analysis.Analyzer {
	tmplModel := contract.New(contract.DefaultConfig())
	tmplChecks := Checks(tmplModel)
	tmplMeta := Meta(tmplModel, tmplChecks)
	model := &analysis.Analyzer{
		Name:             tmplModel.Name,
		Doc:              tmplModel.Doc,
		URL:              tmplModel.URL,
		RunDespiteErrors: true,
		Requires:         tmplModel.Requires,
		FactTypes:        tmplModel.FactTypes,
		ResultType:       reflect.TypeFor[*dispatched](),
		Run:              runModel,
	}
	swap := map[*analysis.Analyzer]*analysis.Analyzer{tmplModel: model}
	var out []*analysis.Analyzer
	for _, c := range tmplChecks {
		w := dispatcher(c, swap, runCheck(c.Name, model))
		swap[c] = w
		out = append(out, w)
	}
	return append(out, dispatcher(tmplMeta, swap, runMeta(model, out)))
}

// dispatcher is an analyzer like a, its requirements swapped for their
// dispatchers, running run.
func dispatcher(a *analysis.Analyzer, swap map[*analysis.Analyzer]*analysis.Analyzer, run func(*analysis.Pass) (any, error)) *analysis.Analyzer {
	w := &analysis.Analyzer{
		Name:             a.Name,
		Doc:              a.Doc,
		URL:              a.URL,
		RunDespiteErrors: a.RunDespiteErrors,
		FactTypes:        a.FactTypes,
		ResultType:       a.ResultType,
		Run:              run,
	}
	for _, r := range a.Requires {
		if s := swap[r]; s != nil {
			r = s
		}
		w.Requires = append(w.Requires, r)
	}
	return w
}

// configured is the analyzers of one configuration file.
type configured struct {
	err    error                         // the file does not load: nothing runs
	model  *analysis.Analyzer            // contract model of the file's options
	checks map[string]*analysis.Analyzer // the checks the file enables, by name
	meta   *analysis.Analyzer            // nil when the file disables it
}

// dispatched is the dispatching model's result: the package's
// configuration and its model's result.
type dispatched struct {
	set   *configured
	model any
}

func runModel(pass *analysis.Pass) (any, error) {
	dir := ""
	if len(pass.Files) > 0 {
		dir = filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name())
	}
	set := build(read(dir))
	if set.err != nil {
		return &dispatched{set: set}, nil
	}
	res, err := set.model.Run(delegate(pass, set.model, nil))
	return &dispatched{set: set, model: res}, err
}

func runCheck(name string, model *analysis.Analyzer) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		d := pass.ResultOf[model].(*dispatched)
		c := d.set.checks[name]
		if d.set.err != nil || c == nil {
			return reflect.Zero(pass.Analyzer.ResultType).Interface(), nil
		}
		return c.Run(delegate(pass, c, map[*analysis.Analyzer]any{d.set.model: d.model}))
	}
}

func runMeta(model *analysis.Analyzer, checks []*analysis.Analyzer) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		d := pass.ResultOf[model].(*dispatched)
		if d.set.err != nil {
			if len(pass.Files) > 0 {
				f := pass.Files[0]
				pass.Report(analysis.Diagnostic{
					Pos: f.Package, End: f.Name.End(),
					Message: fmt.Sprintf("retrylint configuration: %v: no retrylint check runs on this package until the file is fixed", d.set.err),
				})
			}
			return nil, nil
		}
		if d.set.meta == nil {
			return nil, nil
		}
		results := map[*analysis.Analyzer]any{d.set.model: d.model}
		for _, w := range checks {
			if c := d.set.checks[w.Name]; c != nil {
				results[c] = pass.ResultOf[w]
			}
		}
		return d.set.meta.Run(delegate(pass, d.set.meta, results))
	}
}

// delegate is pass for a, with a's requirements' results: those in own,
// the others (the configuration-free analyzers the dispatchers require
// too) from pass. Facts and reports go through pass.
func delegate(pass *analysis.Pass, a *analysis.Analyzer, own map[*analysis.Analyzer]any) *analysis.Pass {
	inner := *pass
	inner.Analyzer = a
	inner.ResultOf = make(map[*analysis.Analyzer]any, len(a.Requires))
	for _, r := range a.Requires {
		if res, ok := own[r]; ok {
			inner.ResultOf[r] = res
		} else {
			inner.ResultOf[r] = pass.ResultOf[r]
		}
	}
	return &inner
}

// configFile is the configuration file of a directory, as read.
type configFile struct {
	path string // "" when there is none: the defaults
	data []byte
	err  error // reading it
}

// build makes the analyzers of the configuration file f.
func build(f configFile) *configured {
	model := contract.New(contract.DefaultConfig())
	checks := Checks(model)
	all := append([]*analysis.Analyzer{model, Meta(model, checks)}, checks...)
	var disabled []string
	if f.path != "" {
		args, err := f.args(all)
		if err == nil {
			disabled, err = config.Apply(args, all)
			if err != nil {
				err = fmt.Errorf("%s: %w", f.path, err)
			}
		}
		if err != nil {
			return &configured{err: err}
		}
	}
	set := &configured{model: model, checks: make(map[string]*analysis.Analyzer)}
	checks = slices.DeleteFunc(checks, func(a *analysis.Analyzer) bool { return slices.Contains(disabled, a.Name) })
	for _, c := range checks {
		set.checks[c.Name] = c
	}
	if !slices.Contains(disabled, directives.Name) {
		set.meta = Meta(model, checks)
	}
	return set
}

func (f configFile) args(all []*analysis.Analyzer) ([]string, error) {
	if f.err != nil {
		return nil, f.err
	}
	return config.Parse(f.path, f.data, all)
}

// ConfigKey identifies the configuration of the packages in dir: the
// path of the nearest .retrylint.yaml and a hash of its content and of
// the profile files it names; "" when there is no file. A driver that
// caches analysis results across runs must make it part of a package's
// key (see PerModule).
func ConfigKey(dir string) string {
	f := read(dir)
	if f.path == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%v\n%d\n", f.path, f.err, len(f.data))
	h.Write(f.data)
	for _, p := range f.profiles() {
		content, err := os.ReadFile(p)
		fmt.Fprintf(h, "\n%s\n%v\n%d\n", p, err, len(content))
		h.Write(content)
	}
	return fmt.Sprintf("%s@%x", f.path, h.Sum(nil))
}

// read reads the configuration file for dir (none for "": a package
// without files).
func read(dir string) configFile {
	var f configFile
	if dir == "" {
		return f
	}
	if f.path = config.Find(dir); f.path != "" {
		f.data, f.err = os.ReadFile(f.path)
	}
	return f
}

// profiles returns the profile files the configuration names (resolved
// as the file's options are), for the key: a profile edited changes what
// the checks report. Built-in profiles' names are there too; reading
// them fails the same way every time.
func (f configFile) profiles() []string {
	model := contract.New(contract.DefaultConfig())
	checks := Checks(model)
	args, err := f.args(append([]*analysis.Analyzer{model, Meta(model, checks)}, checks...))
	if err != nil {
		return nil
	}
	var files []string
	prefix := "-" + model.Name + "." + contract.FlagProfiles + "="
	for _, arg := range args {
		if list, ok := strings.CutPrefix(arg, prefix); ok {
			files = append(files, strings.Split(list, ",")...)
		}
	}
	return files
}
