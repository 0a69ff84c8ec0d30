package driver

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/retryflatten"
)

// Streamed loading: a whole run without holding the whole program.
//
// go/packages' LoadAllSyntax type-checks every package of the program
// from source, bodies included, and keeps every syntax tree and
// types.Info until the analysis ends; go/analysis/checker then analyzes
// them all. Most of that is spent on dependencies that cannot matter: a
// package of the standard library or of a module dependency that names
// no message, no retry carrier and no dead-letter queue exports no fact,
// and no finding is reported in it. The streamed run does what the
// checker does, package by package in dependency order, and decides for
// each dependency, before its function bodies are type-checked, whether
// it can export a fact (contract.Silence, from its syntax, the types of
// its declarations and the facts its imports let it see). A silent
// package is type-checked without its bodies and not analyzed; every
// other one is type-checked whole and analyzed as the checker would
// (unit.run). A package's syntax and types.Info are dropped once it is
// analyzed: memory holds the program's types and facts, and the syntax
// of the packages in flight.
//
// Why the output is the same as the checker's after LoadAllSyntax: a
// root package is type-checked from the same files with the same
// configuration as go/packages does (loadPackage), against the same
// types of its imports (a declaration's type does not depend on function
// bodies), and analyzed with the same facts: a silent package has none of
// its own (Silence's rules, proved by TestSilenceIsSound), and passes on
// what its imports let through, filtered as the checker filters
// (exportedFrom). Only packages outside the main modules can be silent,
// and a silent package's declarations must type-check without error: the
// type errors reported are then the same, but for errors in the function
// bodies of such a dependency, which the go command would not have built.
// Anything the streamed run cannot keep exact (a package that fails to
// list or parse, an analysis that fails, an ill-typed package under an
// analyzer that does not run despite errors) ends it, and the run loads
// through go/packages and the checker instead. TestStreamedIsExact
// compares the two on every test data tree.

// metaMode lists the packages and their files, without loading them.
const metaMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedTypesSizes | packages.NeedModule

// streamed is the outcome of a streamed run.
type streamed struct {
	results []pkgResult
	facts   map[string]*factEntry
	silent  int // packages type-checked without bodies, not analyzed
}

// errStream ends a streamed run: the run loads through go/packages.
var errStream = errors.New("streamed run abandoned")

// loadStreamed lists the packages matching patterns and analyzes them
// streamed. It returns nil when it cannot keep the output exact; the
// caller then loads through go/packages.
func (r *runner) loadStreamed(cfg *packages.Config, patterns []string, stage *stager) ([]*packages.Package, *streamed) {
	if os.Getenv("RETRYLINT_LOADER") == "packages" || os.Getenv("GOPACKAGESDRIVER") != "" {
		return nil, nil // an external driver's packages are type-checked with settings of its own
	}
	s := r.newStreamer()
	if s == nil {
		return nil, nil
	}
	s.debugf = r.debugf
	s.stage = stage
	s.verify = os.Getenv("RETRYLINT_VERIFY_SILENT") == "1"
	s.anyDep = os.Getenv("RETRYLINT_SILENT_ANY") == "1"
	meta := *cfg
	meta.Mode = metaMode
	pkgs, err := packages.Load(&meta, patterns...)
	if err != nil || len(pkgs) == 0 {
		return nil, nil
	}
	clean := true
	packages.Visit(pkgs, nil, func(p *packages.Package) { clean = clean && len(p.Errors) == 0 })
	if !clean {
		return nil, nil
	}
	defer collectLessOften()()
	out, err := s.run(pkgs)
	if err != nil {
		r.debugf("streamed run: %v", err)
		return nil, nil
	}
	r.debugf("streamed run: %d packages silent", out.silent)
	return pkgs, out
}

// The streamed run's heap is about half the checker's (syntax and
// types.Info are dropped as packages are done; silent packages never
// have them): it spends some of that on fewer collections, GOGC 200,
// while the heap that survives a collection stays under
// streamLiveLimit; past it, the default again, so that a program with a
// large heap does not triple it. bench/README.md has the figures.
const (
	streamGCPercent = 200
	streamLiveLimit = 512 << 20
)

// collectLessOften sets the streamed run's GOGC, unless the environment
// sets one, and returns what restores it.
func collectLessOften() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(streamGCPercent)
	var done atomic.Bool
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var afterGC func(*gcSentinel)
	afterGC = func(*gcSentinel) {
		if done.Load() {
			return
		}
		if metrics.Read(sample); sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > streamLiveLimit {
			debug.SetGCPercent(old)
			return
		}
		runtime.SetFinalizer(new(gcSentinel), afterGC) // the next collection
	}
	runtime.SetFinalizer(new(gcSentinel), afterGC)
	return func() {
		done.Store(true)
		debug.SetGCPercent(old)
	}
}

// gcSentinel is garbage at once: its finalizer runs after a collection.
type gcSentinel struct{ _ [32]byte }

// streamer runs one streamed analysis.
type streamer struct {
	rootAnalyzers []*analysis.Analyzer // what runs on a root package
	depAnalyzers  []*analysis.Analyzer // what runs on a dependency: the analyzers with facts and those they require
	selected      []*analysis.Analyzer // the analyzers whose findings are reported
	contract      *contract.Config
	fset          *token.FileSet
	cpu           chan struct{}
	files         *parseCache
	stdSrc        string // GOROOT/src
	debugf        func(format string, args ...any)
	// verify analyzes every silent package too, and ends the run when
	// it exports a fact Silence did not give it (TestSilenceIsSound).
	verify bool
	// stage, when set, stages each package's cache entry as it is done.
	stage *stager
	// anyDep lets every dependency be silent, the main modules' too:
	// tests judge Silence on packages of their own with it.
	anyDep bool

	mu      sync.Mutex
	err     error
	states  map[*packages.Package]*pkgState
	results []pkgResult
	facts   map[string]*factEntry
	silent  int
}

// pkgState is what a package passes on to its importers.
type pkgState struct {
	done    chan struct{}
	facts   map[string]*inheritedFacts // by analyzer: its own and those it lets through
	inSight bool                       // contract.Silence.InSight
	own     []factRecord               // a silent package's own facts
}

// newStreamer returns a streamer for the run's analyzers, or nil when
// one of them exports facts Silence does not account for.
func (r *runner) newStreamer() *streamer {
	roots := requiredClosure(r.selected())
	var withFacts []*analysis.Analyzer
	var cfg *contract.Config
	for _, a := range roots {
		if !a.RunDespiteErrors {
			return nil // the checker skips it on ill-typed packages; keep its failure exact
		}
		if len(a.FactTypes) == 0 {
			continue
		}
		if !silenceKnows[a.Name] {
			return nil
		}
		if a.Name == contract.Name {
			cfg = contract.ConfigOf(a)
		}
		withFacts = append(withFacts, a)
	}
	if cfg == nil {
		return nil
	}
	registerFacts(withFacts)
	return &streamer{
		rootAnalyzers: roots,
		depAnalyzers:  requiredClosure(withFacts),
		selected:      r.selected(),
		contract:      cfg,
		fset:          token.NewFileSet(),
		cpu:           make(chan struct{}, runtime.GOMAXPROCS(0)),
		files:         &parseCache{files: make(map[string]*parsedFile)},
		states:        make(map[*packages.Package]*pkgState),
		facts:         make(map[string]*factEntry),
	}
}

// silenceKnows names the analyzers with facts whose every fact Silence's
// rules account for (see contract.Silence): the contract model's and the
// checks'. TestSilenceKnowsEveryCheck keeps it in step with the suite.
var silenceKnows = map[string]bool{
	contract.Name: true, "retryflatten": true, "ackpermanent": true, "dlqunchecked": true, "ackretryable": true, "poisonack": true,
}

// seenBySilent reports whether a fact a package sees from its imports
// leaves it silent: those Silence's own rules account for, as their
// types say.
func seenBySilent(f analysis.Fact) bool {
	s, ok := f.(interface{ SeenBySilent() bool })
	return ok && s.SeenBySilent()
}

// run analyzes the program of the root packages pkgs.
func (s *streamer) run(pkgs []*packages.Package) (*streamed, error) {
	roots := make(map[*packages.Package]bool, len(pkgs))
	for _, p := range pkgs {
		roots[p] = true
	}
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		all = append(all, p)
		s.states[p] = &pkgState{done: make(chan struct{})}
	})
	s.stdSrc = stdSource(all)
	for _, p := range all {
		whole := roots[p] || !s.mayBeSilent(p)
		for _, name := range p.CompiledGoFiles {
			s.files.want(name, whole)
		}
	}
	var wg sync.WaitGroup
	for _, p := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(s.states[p].done)
			if err := s.load(p, roots[p]); err != nil {
				s.fail(err)
			}
		}()
	}
	wg.Wait()
	if s.err != nil {
		return nil, s.err
	}
	sortResults(s.results)
	return &streamed{results: s.results, facts: s.facts, silent: s.silent}, nil
}

func (s *streamer) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
}

func (s *streamer) failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err != nil
}

// load type-checks and analyzes one package once its imports are done.
func (s *streamer) load(p *packages.Package, root bool) error {
	for _, imp := range p.Imports {
		<-s.states[imp].done
	}
	if s.failed() {
		return nil
	}
	s.cpu <- struct{}{}
	defer func() { <-s.cpu }()

	st := s.states[p]
	st.facts = s.inherit(p)
	for _, imp := range p.Imports {
		st.inSight = st.inSight || s.states[imp].inSight
	}
	p.Fset = s.fset
	if p.PkgPath == "unsafe" {
		p.Types, p.Syntax, p.TypesInfo = types.Unsafe, []*ast.File{}, newTypesInfo()
		return s.keep(p, nil, nil)
	}
	if !root && s.mayBeSilent(p) {
		// Parsed without comments first, unless a package parsed whole
		// lists the same files (parseCache).
		light, directive, ok := s.files.shared(s.fset, p.CompiledGoFiles)
		var err error
		if !ok {
			light, directive, err = parseLight(s.fset, p.CompiledGoFiles)
		}
		if err == nil && !directive && s.silence(p, light, st) {
			s.files.release(p.CompiledGoFiles)
			if s.verify {
				if err := s.verifySilent(p, st); err != nil {
					return err
				}
			}
			e, err := newFactEntry(p.ID, st.own, false)
			if err != nil {
				return err
			}
			return s.keep(p, e, nil)
		}
	}
	files, err := s.files.parse(s.fset, p.CompiledGoFiles)
	if err != nil {
		return err
	}
	if err := s.check(p, files); err != nil {
		return err
	}
	analyzers := s.depAnalyzers
	if root {
		analyzers = s.rootAnalyzers
	}
	u := &unit{pkg: p, analyzers: analyzers, inherited: st.facts}
	if err := u.run(); err != nil {
		return fmt.Errorf("%w: %v", errStream, err)
	}
	own := make(map[string]*inheritedFacts)
	for _, a := range analyzers {
		if len(a.FactTypes) > 0 {
			own[a.Name] = &inheritedFacts{objects: u.acts[a].objectFacts, packages: u.acts[a].packageFacts}
		}
	}
	st.facts = own
	var res *pkgResult
	if root {
		res = &pkgResult{ID: p.ID, Skeleton: skeletonSum(p)}
		for _, a := range s.selected {
			res.Diags = append(res.Diags, diagsOf(a.Name, p.Fset, u.acts[a].diags)...)
		}
		s.mu.Lock()
		s.results = append(s.results, *res)
		s.mu.Unlock()
	}
	entry, err := u.ownFacts()
	if err != nil {
		return err
	}
	p.Syntax, p.TypesInfo = nil, newTypesInfo() // what the report needs is resolved
	return s.keep(p, entry, res)
}

// mayBeSilent reports whether the dependency p may be silent: whether
// Silence judges it.
func (s *streamer) mayBeSilent(p *packages.Package) bool {
	return s.anyDep || outsideMainModules(p, s.stdSrc)
}

// verifySilent analyzes a silent package whole, on types of its own, and
// fails when its facts are not those Silence gave it.
func (s *streamer) verifySilent(p *packages.Package, st *pkgState) error {
	files, err := (&parseCache{files: make(map[string]*parsedFile)}).parseOnce(s.fset, p.CompiledGoFiles)
	if err != nil {
		return err
	}
	q := *p
	q.Errors, q.TypeErrors = nil, nil
	if err := s.check(&q, files); err != nil {
		return err
	}
	u := &unit{pkg: &q, analyzers: s.depAnalyzers, inherited: s.inherit(p)}
	if err := u.run(); err != nil {
		return fmt.Errorf("%w: %v", errStream, err)
	}
	var got []factRecord
	for _, a := range s.depAnalyzers {
		if len(a.FactTypes) > 0 {
			recs, _ := ownRecords(a.Name, q.Types, u.acts[a].allObjectFacts(), u.acts[a].allPackageFacts())
			got = append(got, recs...)
		}
	}
	describe := func(recs []factRecord) []string {
		var out []string
		for _, r := range recs {
			out = append(out, fmt.Sprintf("%s %s %T %v", r.Analyzer, r.Path, r.Fact, r.Fact))
		}
		slices.Sort(out)
		return out
	}
	if want, have := describe(got), describe(st.own); !slices.Equal(want, have) {
		return fmt.Errorf("%w: silent package %s has facts %v, not %v", errStream, p.ID, want, have)
	}
	return nil
}

// keep records a package's facts entry (none: it has no facts of its own).
func (s *streamer) keep(p *packages.Package, e *factEntry, res *pkgResult) error {
	if e == nil {
		var err error
		if e, err = newFactEntry(p.ID, nil, false); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.facts[p.ID] = e
	s.mu.Unlock()
	if s.stage != nil {
		s.stage.done(p, res, e)
	}
	return nil
}

// inherit returns the facts of p's direct imports that the checker lets
// p see, by analyzer (checker's inheritFacts).
func (s *streamer) inherit(p *packages.Package) map[string]*inheritedFacts {
	out := make(map[string]*inheritedFacts)
	for _, a := range s.depAnalyzers {
		if len(a.FactTypes) > 0 {
			out[a.Name] = &inheritedFacts{objects: make(map[objectFactKey]analysis.Fact), packages: make(map[packageFactKey]analysis.Fact)}
		}
	}
	for _, imp := range p.Imports {
		for name, from := range s.states[imp].facts {
			to := out[name]
			for k, f := range from.objects {
				if exportedFrom(k.obj, imp.Types) {
					to.objects[k] = f
				}
			}
			for k, f := range from.packages {
				to.packages[k] = f
			}
		}
	}
	return out
}

// silence type-checks p's declarations and decides whether it can export
// a fact (contract.Silence). When it cannot, silence reports true and p
// keeps those types and no syntax; it passes on the facts its imports
// let through, as the checker's action on it would.
func (s *streamer) silence(p *packages.Package, files []*ast.File, st *pkgState) bool {
	noReturn := make(map[*types.Func]bool)
	noReturnNames, flattensNames := make(map[string]bool), make(map[string]bool)
	for _, set := range st.facts {
		for k, f := range set.objects {
			if !seenBySilent(f) {
				s.debugf("%s: sees %T on %s", p.ID, f, k.obj)
				return false
			}
			if fn, ok := k.obj.(*types.Func); ok && reflect.TypeOf(f) == noReturnType {
				noReturn[fn], noReturnNames[fn.Name()] = true, true
			}
			if _, ok := f.(*retryflatten.FlattensFact); ok {
				flattensNames[k.obj.Name()] = true
			}
		}
		for _, f := range set.packages {
			if !seenBySilent(f) {
				return false
			}
		}
	}
	tp := types.NewPackage(p.PkgPath, p.Name)
	info := &types.Info{Defs: make(map[*ast.Ident]types.Object)}
	clean := true
	tc := typesConfig(p, loadedTypes, func(error) { clean = false })
	tc.IgnoreFuncBodies = true
	if err := types.NewChecker(tc, s.fset, tp, info).Files(files); err != nil || !clean {
		s.debugf("%s: declarations do not type-check", p.ID)
		return false
	}
	v := s.contract.Silence(contract.SilentInputs{
		Files: files, Pkg: tp, Info: info,
		NoReturn:       func(fn *types.Func) bool { return noReturn[fn] },
		NoReturnName:   func(name string) bool { return noReturnNames[name] },
		FlattensName:   func(name string) bool { return flattensNames[name] },
		ImportsInSight: st.inSight,
	})
	st.inSight = v.InSight
	if !v.Silent {
		s.debugf("%s: %s", p.ID, v.Why)
		return false
	}
	p.Types, p.TypesInfo, p.Syntax = tp, newTypesInfo(), nil
	p.IllTyped = importsIllTyped(p)
	if len(v.NoReturn) > 0 {
		// The one fact a silent package may have (contract.Silence).
		own := st.facts[contract.Name]
		var recs []analysis.ObjectFact
		for _, fn := range v.NoReturn {
			f := new(cfgs.NoReturnFact)
			own.objects[objectFactKey{fn, noReturnType}] = f
			recs = append(recs, analysis.ObjectFact{Object: fn, Fact: f})
		}
		st.own, _ = ownRecords(contract.Name, tp, recs, nil)
	}
	s.mu.Lock()
	s.silent++
	s.mu.Unlock()
	return true
}

// noReturnType is the type of the contract analyzer's cfgs.NoReturnFact.
var noReturnType = reflect.TypeOf(new(cfgs.NoReturnFact))

// check type-checks p whole, as go/packages' loadPackage does.
func (s *streamer) check(p *packages.Package, files []*ast.File) error {
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	p.Syntax = files
	p.TypesInfo = newTypesInfo()
	tc := typesConfig(p, loadedTypes, func(err error) {
		if te, ok := err.(types.Error); ok {
			p.TypeErrors = append(p.TypeErrors, te)
			p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
		}
	})
	typErr := types.NewChecker(tc, s.fset, p.Types, p.TypesInfo).Files(files)
	if typErr != nil && len(p.Errors) == 0 {
		return fmt.Errorf("%w: %s: %v", errStream, p.ID, typErr) // go/packages' rarer cases
	}
	p.IllTyped = len(p.Errors) > 0 || importsIllTyped(p)
	return nil
}

// typesConfig is go/packages' configuration of the type checker for p,
// whose imports' types imported gives.
func typesConfig(p *packages.Package, imported func(*packages.Package) (*types.Package, error), onError func(error)) *types.Config {
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			imp := p.Imports[path]
			if imp == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			return imported(imp)
		}),
		Error: onError,
		Sizes: p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	return tc
}

// loadedTypes gives the types of an import the streamed run loaded.
func loadedTypes(imp *packages.Package) (*types.Package, error) { return imp.Types, nil }

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// newTypesInfo is go/packages' types.Info for NeedTypesInfo.
func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
}

// outsideMainModules reports whether p belongs to the standard library
// (its files under stdSrc, GOROOT/src) or to a module dependency that is
// not replaced by a directory: code the run's user does not edit, which
// the go command has built.
func outsideMainModules(p *packages.Package, stdSrc string) bool {
	if m := p.Module; m != nil {
		return !m.Main && (m.Replace == nil || m.Replace.Version != "")
	}
	return stdSrc != "" && len(p.CompiledGoFiles) > 0 && len(p.GoFiles) > 0 &&
		strings.HasPrefix(p.GoFiles[0], stdSrc+string(filepath.Separator))
}

// stdSource returns GOROOT/src as the listing shows it (the directory
// above package unsafe's), or "".
func stdSource(all []*packages.Package) string {
	for _, p := range all {
		if p.PkgPath == "unsafe" && len(p.GoFiles) > 0 {
			return filepath.Dir(filepath.Dir(p.GoFiles[0]))
		}
	}
	return ""
}

// importsIllTyped reports whether an import of p is ill-typed, which
// makes p so too (go/packages' IllTyped).
func importsIllTyped(p *packages.Package) bool {
	for _, imp := range p.Imports {
		if imp.IllTyped {
			return true
		}
	}
	return false
}
