package driver

import (
	"fmt"
	"go/types"
	"os"
	"reflect"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"
)

// Analyzing the missed packages against export data (analyzeFromExport).
//
// When every package the missed ones depend on, and that is not missed
// itself, has its facts in the package cache, the missed packages are
// type-checked from source against their dependencies' export data (what
// go list -export compiles, from the go command's build cache) and
// analyzed with the dependencies' facts replayed, the way go vet does:
// an edit costs about the packages it touches, not a load of the whole
// program from source.
//
// Why the output is the same as a full run's: an analysis reads the
// syntax and types of its own package, the results of the analyzers it
// requires on it, and the facts of its dependencies. The package's own
// syntax and types are computed from the same files. Its dependencies'
// types come from export data instead of source, and two things could
// differ: objects the package cannot name are absent unless the export
// data holds them, and positions of the dependencies' objects carry no
// column. Against the first, every dependency with facts to replay is
// completed from its own export data (every object export data holds,
// not just those some importer referenced); a dependency without facts
// is only what its importers' export data says of it, as for go vet.
// Against the second, a finding with a position in a dependency's file
// ends the fast path (allFromSource). The facts themselves are those the
// checker would have let the package see (exportedFrom: a direct
// import's, and past it only facts on methods, fields, types and
// constants), decoded by object path; a fact whose object is not found
// in the export data stops the fast path, and the run loads from source.
// Tests (cache_test.go: TestPackageCache, TestPackageCacheCorpus)
// compare the output with an uncached run's after edits at each level, in
// every format. The loading itself is in exportroots.go; a miss the fast
// path cannot take is analyzed by a streamed run (stream.go).

// runFromExport analyzes roots, loaded from source against export data,
// with the facts of the dependencies in deps (by ID: every transitive
// dependency that is not a root) and deps' export files in listing. It
// returns the roots' results and their facts, or an error when it could
// not keep the output exact.
func (r *runner) runFromExport(roots []*packages.Package, listing map[string]*packages.Package, deps map[string]*factEntry) ([]pkgResult, map[string]*factEntry, error) {
	analyzers := requiredClosure(r.selected())
	facts := make(map[string]*factEntry, len(deps)+len(roots))
	for id, e := range deps {
		facts[id] = e
	}
	byID := make(map[string]*packages.Package, len(roots))
	for _, p := range roots {
		byID[p.ID] = p
	}
	var results []pkgResult
	for _, id := range rootOrder(roots, listing) {
		p := byID[id]
		u := &unit{pkg: p, listed: listing[id], analyzers: analyzers}
		if err := u.completeImports(listing, byID, facts); err != nil {
			return nil, nil, err
		}
		if err := u.inherit(facts, listing); err != nil {
			return nil, nil, err
		}
		if err := u.run(); err != nil {
			return nil, nil, err
		}
		e, err := u.ownFacts()
		if err != nil {
			return nil, nil, err
		}
		facts[id] = e
		res := pkgResult{ID: id, Skeleton: skeletonSum(p)}
		for _, a := range r.selected() {
			res.Diags = append(res.Diags, diagsOf(a.Name, p.Fset, u.acts[a].diags)...)
		}
		results = append(results, res)
	}
	if name, ok := allFromSource(results, roots); !ok {
		return nil, nil, fmt.Errorf("a finding stands in %s, a file of a dependency loaded from export data, whose positions have no columns", name)
	}
	own := make(map[string]*factEntry, len(roots))
	for id := range byID {
		own[id] = facts[id]
	}
	return results, own, nil
}

// rootOrder returns the IDs of roots, each after the roots it depends
// on.
func rootOrder(roots []*packages.Package, listing map[string]*packages.Package) []string {
	want := make(map[string]bool, len(roots))
	for _, p := range roots {
		want[p.ID] = true
	}
	var order []string
	var start []*packages.Package
	for _, p := range roots {
		start = append(start, listing[p.ID])
	}
	packages.Visit(start, nil, func(p *packages.Package) {
		if want[p.ID] {
			order = append(order, p.ID)
		}
	})
	return order
}

// unit is the analysis of one root package.
type unit struct {
	pkg       *packages.Package // from source
	listed    *packages.Package // its listing, with the export files of its dependencies
	analyzers []*analysis.Analyzer
	view      map[string]*types.Package // the packages its types reach, by path
	acts      map[*analysis.Analyzer]*action
	inherited map[string]*inheritedFacts // by analyzer name
}

type inheritedFacts struct {
	objects  map[objectFactKey]analysis.Fact
	packages map[packageFactKey]analysis.Fact
}

type objectFactKey struct {
	obj types.Object
	typ reflect.Type
}

type packageFactKey struct {
	pkg *types.Package
	typ reflect.Type
}

// completeImports makes every dependency of the package complete in the
// package's view of types: one its types reach only through another
// package's export data holds only what that export data mentions, and
// one they do not reach is absent; each is read from its own export
// data, dependencies first, into the same view.
func (u *unit) completeImports(listing map[string]*packages.Package, roots map[string]*packages.Package, facts map[string]*factEntry) error {
	u.view = make(map[string]*types.Package)
	var reach func(p *types.Package)
	reach = func(p *types.Package) {
		for _, imp := range p.Imports() {
			if _, ok := u.view[imp.Path()]; !ok {
				u.view[imp.Path()] = imp
				reach(imp)
			}
		}
	}
	reach(u.pkg.Types)
	var err error
	packages.Visit([]*packages.Package{u.listed}, nil, func(dep *packages.Package) {
		if err != nil || dep == u.listed || dep.PkgPath == "unsafe" {
			return
		}
		if tp := u.view[dep.PkgPath]; tp != nil && tp.Complete() {
			return
		}
		if roots[dep.ID] != nil {
			err = fmt.Errorf("%s: root %s not reached by types", u.pkg.ID, dep.ID)
			return
		}
		if e := facts[dep.ID]; e != nil && !e.Opaque && e.empty() {
			return // no fact to find an object for
		}
		err = u.readExport(dep)
	})
	return err
}

// readExport reads dep's export data into the view.
func (u *unit) readExport(dep *packages.Package) error {
	_, err := readExport(u.pkg.Fset, u.view, dep)
	return err
}

// inherit decodes the facts of the package's dependencies that the
// checker would let it see (see exportedFrom).
func (u *unit) inherit(facts map[string]*factEntry, listing map[string]*packages.Package) error {
	u.inherited = make(map[string]*inheritedFacts)
	for _, a := range u.analyzers {
		if len(a.FactTypes) > 0 {
			u.inherited[a.Name] = &inheritedFacts{objects: make(map[objectFactKey]analysis.Fact), packages: make(map[packageFactKey]analysis.Fact)}
		}
	}
	direct := make(map[string]bool, len(u.listed.Imports))
	for _, imp := range u.listed.Imports {
		direct[imp.ID] = true
	}
	var err error
	packages.Visit([]*packages.Package{u.listed}, nil, func(dep *packages.Package) {
		if err != nil || dep == u.listed || dep.PkgPath == "unsafe" {
			return
		}
		err = u.inheritFrom(dep, facts[dep.ID], direct[dep.ID])
	})
	return err
}

func (u *unit) inheritFrom(dep *packages.Package, e *factEntry, direct bool) error {
	if e == nil || e.Opaque {
		return fmt.Errorf("%s: no facts", dep.ID)
	}
	recs, err := e.records()
	if err != nil || len(recs) == 0 {
		return err
	}
	tp := u.view[dep.PkgPath]
	if tp == nil {
		return fmt.Errorf("%s: not in the types of %s", dep.ID, u.pkg.ID)
	}
	for _, rec := range recs {
		in := u.inherited[rec.Analyzer]
		if in == nil {
			return fmt.Errorf("%s: facts of analyzer %s, which does not run", dep.ID, rec.Analyzer)
		}
		typ := reflect.TypeOf(rec.Fact)
		if rec.Package {
			in.packages[packageFactKey{tp, typ}] = rec.Fact
			continue
		}
		if !direct && !rec.Object.visibleBeyond() {
			continue
		}
		obj, err := objectpath.Object(tp, rec.Path)
		if err != nil {
			obj = rec.Object.object(tp) // not in the export data: see objectSketch
		}
		if obj == nil {
			return fmt.Errorf("%s: %s: no object", dep.ID, rec.Path)
		}
		in.objects[objectFactKey{obj, typ}] = rec.Fact
	}
	return nil
}

// action is one analyzer's pass over the unit's package.
type action struct {
	result       any
	diags        []analysis.Diagnostic
	objectFacts  map[objectFactKey]analysis.Fact
	packageFacts map[packageFactKey]analysis.Fact
}

// run runs the analyzers on the package, each after those it requires, as
// the checker's actions do.
func (u *unit) run() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: panic: %v\n%s", u.pkg.ID, r, debug.Stack())
		}
	}()
	p := u.pkg
	module := analysisModule(p.Module)
	if module == nil {
		module = &analysis.Module{}
	}
	readFile := checkedReadFile(p)
	u.acts = make(map[*analysis.Analyzer]*action, len(u.analyzers))
	for _, a := range u.analyzers {
		act := &action{objectFacts: make(map[objectFactKey]analysis.Fact), packageFacts: make(map[packageFactKey]analysis.Fact)}
		if in := u.inherited[a.Name]; in != nil {
			for k, f := range in.objects {
				act.objectFacts[k] = f
			}
			for k, f := range in.packages {
				act.packageFacts[k] = f
			}
		}
		inputs := make(map[*analysis.Analyzer]any, len(a.Requires))
		for _, req := range a.Requires {
			inputs[req] = u.acts[req].result
		}
		pass := &analysis.Pass{
			Analyzer:     a,
			Fset:         p.Fset,
			Files:        p.Syntax,
			OtherFiles:   p.OtherFiles,
			IgnoredFiles: p.IgnoredFiles,
			Pkg:          p.Types,
			TypesInfo:    p.TypesInfo,
			TypesSizes:   p.TypesSizes,
			TypeErrors:   p.TypeErrors,
			Module:       module,
			ResultOf:     inputs,
			Report:       func(d analysis.Diagnostic) { act.diags = append(act.diags, d) },
			ReadFile:     readFile,
		}
		act.bindFacts(pass)
		result, err := a.Run(pass)
		if err != nil {
			return fmt.Errorf("%s: %s: %v", p.ID, a.Name, err)
		}
		if got := reflect.TypeOf(result); got != a.ResultType {
			return fmt.Errorf("%s: %s returned a %v, not its %v", p.ID, a.Name, got, a.ResultType)
		}
		pass.ExportObjectFact, pass.ExportPackageFact = nil, nil
		act.result = result
		u.acts[a] = act
	}
	return nil
}

// bindFacts gives the pass the action's facts, as the checker's do.
func (act *action) bindFacts(pass *analysis.Pass) {
	pass.ImportObjectFact = func(obj types.Object, ptr analysis.Fact) bool {
		if f, ok := act.objectFacts[objectFactKey{obj, reflect.TypeOf(ptr)}]; ok {
			reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			return true
		}
		return false
	}
	pass.ImportPackageFact = func(pkg *types.Package, ptr analysis.Fact) bool {
		if f, ok := act.packageFacts[packageFactKey{pkg, reflect.TypeOf(ptr)}]; ok {
			reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			return true
		}
		return false
	}
	pass.ExportObjectFact = func(obj types.Object, f analysis.Fact) {
		if obj.Pkg() != pass.Pkg {
			panic(fmt.Sprintf("%s: fact on %s, an object of another package", pass.Analyzer.Name, obj))
		}
		act.objectFacts[objectFactKey{obj, reflect.TypeOf(f)}] = f
	}
	pass.ExportPackageFact = func(f analysis.Fact) {
		act.packageFacts[packageFactKey{pass.Pkg, reflect.TypeOf(f)}] = f
	}
	pass.AllObjectFacts = act.allObjectFacts
	pass.AllPackageFacts = act.allPackageFacts
}

func (act *action) allObjectFacts() []analysis.ObjectFact {
	out := make([]analysis.ObjectFact, 0, len(act.objectFacts))
	for k, f := range act.objectFacts {
		out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
	}
	return out
}

func (act *action) allPackageFacts() []analysis.PackageFact {
	out := make([]analysis.PackageFact, 0, len(act.packageFacts))
	for k, f := range act.packageFacts {
		out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
	}
	return out
}

// ownFacts returns the entry of the package's own facts, as ownFacts
// computes it from a checker graph.
func (u *unit) ownFacts() (*factEntry, error) {
	var recs []factRecord
	opaque := false
	for _, a := range u.analyzers {
		if len(a.FactTypes) > 0 {
			act := u.acts[a]
			r, opq := ownRecords(a.Name, u.pkg.Types, act.allObjectFacts(), act.allPackageFacts())
			recs, opaque = append(recs, r...), opaque || opq
		}
	}
	return newFactEntry(u.pkg.ID, recs, opaque)
}

// analysisModule converts a go/packages module to the analysis API's, as
// the checker does.
func analysisModule(m *packages.Module) *analysis.Module {
	if m == nil {
		return nil
	}
	var modErr *analysis.ModuleError
	if m.Error != nil {
		modErr = &analysis.ModuleError{Err: m.Error.Err}
	}
	return &analysis.Module{
		Path: m.Path, Version: m.Version, Replace: analysisModule(m.Replace), Time: m.Time,
		Main: m.Main, Indirect: m.Indirect, Dir: m.Dir, GoMod: m.GoMod, GoVersion: m.GoVersion, Error: modErr,
	}
}

// checkedReadFile is the checker's Pass.ReadFile (x/tools'
// driverutil.CheckedReadFile): the package's files only.
func checkedReadFile(p *packages.Package) func(string) ([]byte, error) {
	allowed := make(map[string]bool)
	for _, names := range [][]string{p.OtherFiles, p.IgnoredFiles} {
		for _, n := range names {
			allowed[n] = true
		}
	}
	for _, f := range p.Syntax {
		allowed[p.Fset.File(f.FileStart).Name()] = true
	}
	return func(name string) ([]byte, error) {
		if !allowed[name] {
			return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", name)
		}
		return os.ReadFile(name)
	}
}

// analyzeFromExport analyzes the missed packages against their
// dependencies' export data and cached facts (see runFromExport). It
// reports false, having stored nothing, when a dependency has no facts
// in the cache or the output could not be kept exact: the caller then
// loads from source.
func (r *runner) analyzeFromExport(c *pkgCache, cfg *packages.Config, misses []*packages.Package, keys, rkeys map[string]pkgKey) ([]pkgResult, bool) {
	want, _ := missPatterns(misses)
	if missed, all := c.sourceBytes(misses, want); missed*exportCostFactor > all {
		r.debugf("missed packages hold %d of %d bytes of source: loading from source", missed, all)
		return nil, false
	}
	deps := make(map[string]*factEntry)
	listed := make(map[string]*packages.Package)
	complete := true
	packages.Visit(misses, func(p *packages.Package) bool {
		if !complete {
			return false
		}
		listed[p.ID] = p
		if want[p.ID] {
			return true // Visit calls pre once per package
		}
		e := c.entry(p.ID, rkeys[p.ID])
		if e == nil || e.Facts == nil || e.Facts.Opaque {
			r.debugf("no facts for %s (opaque: %v)", p.ID, e != nil && e.Facts != nil)
			complete = false
			return false
		}
		deps[p.ID] = e.Facts
		return true
	}, nil)
	if !complete {
		return nil, false
	}
	registerFacts(r.selected())
	if err := r.listExports(cfg, misses, want, listed, deps); err != nil {
		r.debugf("%v", err)
		return nil, false
	}
	roots, err := r.checkAgainstExports(misses, want, listed)
	if err != nil || hasMissingFuncs(r.analyzers, roots) {
		r.debugf("roots: %v", err)
		return nil, false
	}
	results, facts, err := r.runFromExport(roots, listed, deps)
	if err != nil {
		r.debugf("%v", err)
		return nil, false
	}
	sortResults(results)
	c.store(misses, results, keys, facts)
	return results, true
}

func (r *runner) debugf(format string, args ...any) {
	if os.Getenv("RETRYLINT_DEBUG_INCREMENTAL") != "" {
		fmt.Fprintf(r.stderr, "incremental: "+format+"\n", args...)
	}
}

// exportCostFactor weighs compiling a missed package, which go list
// -export does for the export data of its dependents, against
// type-checking it from source: the export path is taken only when the
// missed packages hold less than 1/exportCostFactor of the program's
// source. Measured on nats-server v2.15.2: after an edit in its main
// package (a few hundred bytes missed) the export path costs 0.9 s
// against 7 s from source; after an edit in conf, whose dependents
// include the server package (over half of the module), it costs 37 s
// against 15 s, most of it compiling the server package twice (with and
// without its tests).
const exportCostFactor = 4

// sourceBytes returns the size of the files of the missed packages and of
// every package of the program, from the sizes the keys recorded.
func (c *pkgCache) sourceBytes(misses []*packages.Package, missed map[string]bool) (inMisses, all int64) {
	packages.Visit(misses, nil, func(p *packages.Package) {
		for _, name := range p.CompiledGoFiles {
			n := c.fileSums[name].size
			all += n
			if missed[p.ID] {
				inMisses += n
			}
		}
	})
	return inMisses, all
}

// allFromSource reports whether every position of the results is in a
// file of the roots, parsed from source; if not, it returns the first
// file that is not. A dependency's positions come from its export data,
// which records lines but no columns: a finding that points into a
// dependency (the place a handler in another package returns, or where
// a bus layer Acks) is printed only from a run that loaded it from
// source.
func allFromSource(results []pkgResult, roots []*packages.Package) (string, bool) {
	files := make(map[string]bool)
	for _, p := range roots {
		for _, f := range p.Syntax {
			files[p.Fset.File(f.FileStart).Name()] = true
		}
	}
	for _, res := range results {
		for _, d := range res.Diags {
			names := []string{d.Posn.Filename, d.End.Filename}
			for _, rel := range d.Related {
				names = append(names, rel.Posn.Filename, rel.End.Filename)
			}
			for _, fix := range d.Fixes {
				for _, e := range fix.Edits {
					names = append(names, e.Filename)
				}
			}
			for _, name := range names {
				if name != "" && !files[name] {
					return name, false
				}
			}
		}
	}
	return "", true
}
