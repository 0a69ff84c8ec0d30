package contract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/paths"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
)

// Name is the contract analyzer's name; drivers prefix its flags with it.
const Name = "retrycontract"

// Analyzer is the contract model with the default configuration, its
// options bound to its flags. Checks require it and read its *Model.
var Analyzer = New(DefaultConfig())

// Option configures a contract analyzer beyond its Config: what tests
// observe of its work.
type Option func(*hooks)

// hooks are what tests observe of a run: each CFG built and each body
// whose transient paths are solved.
type hooks struct {
	build, solve func(body *ast.BlockStmt)
}

// OnBuild has f called with each function body whose control-flow graph
// the model builds.
func OnBuild(f func(body *ast.BlockStmt)) Option { return func(h *hooks) { h.build = f } }

// OnSolve has f called with each function body whose transient paths the
// model solves.
func OnSolve(f func(body *ast.BlockStmt)) Option { return func(h *hooks) { h.solve = f } }

// New returns a contract analyzer for cfg, with cfg's options registered as
// its flags. A run must use one contract analyzer: its fact types are its own.
func New(cfg *Config, opts ...Option) *analysis.Analyzer {
	var h hooks
	for _, opt := range opts {
		opt(&h)
	}
	a := &analysis.Analyzer{
		Name:             Name,
		Doc:              doc,
		URL:              "https://github.com/retrylint/retrylint/tree/main/analyzers/contract",
		RunDespiteErrors: true,
		ResultType:       reflect.TypeFor[*Model](),
		FactTypes: []analysis.Fact{
			new(producerFact), new(wrapsFact), new(dLQWriterFact),
			new(effectsFact), new(classifierFact), new(retryableVarFact),
			new(cfgs.NoReturnFact), new(handlerFact), new(middlewareFact), new(handlerCandidateFact),
			new(carrierTypesFact),
		},
		Run: func(pass *analysis.Pass) (result any, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("%s: internal error in package %s: %v\n%s", Name, pass.Pkg.Path(), r, debug.Stack())
				}
			}()
			return run(pass, cfg, h)
		},
	}
	cfg.RegisterFlags(&a.Flags)
	return a
}

// Model is what the contract analyzer knows about one package: which of
// its types are carriers and messages, which calls produce retryable
// errors, write a DLQ or Term a message. Its methods also consult facts
// about other packages.
//
// The model is computed whole in the contract analyzer's Run, facts of
// other packages included, and is read-only afterwards: the checks share it
// and run in parallel.
type Model struct {
	cfg      *Config
	hooks    hooks
	fset     *token.FileSet
	files    []*ast.File
	pkg      *types.Package
	info     *types.Info
	flow     *defs.Index
	syn      *syntax.Index // what one walk over the files collects; trimmed when frozen
	imported importedFacts
	graphs   *cfgs.Graphs         // the CFGs of the bodies with something to judge
	noReturn map[*types.Func]bool // the package's functions that never return

	// What can be found in the package at all (vocabulary.go): the model
	// skips the inferences that cannot find anything.
	gate      syntax.Gate // what can be found in the package
	mayHandle bool        // some function could be a handler registered elsewhere

	prod   *producers.Result
	frozen bool // set when Run is done: the memo maps below are complete

	dlq       *dlq.Result
	set       *settle.Result         // settlements, effects, deferred Acks
	msgs      *messages.Table        // messages, ack calls, publish calls, derivations
	hd        *handlers.Result       // handler parameters, middleware, handlers, decodes
	decls     []*ast.FuncDecl        // with a body, not a test function
	testFuncs map[*ast.FuncDecl]bool // out of scope (testfuncs.go)
	declByFn  map[*types.Func]*ast.FuncDecl
	calls     map[*ast.BlockStmt][]*ast.CallExpr // memo of callsOf while the model runs
	tr        *transient.Result                  // classifiers, and the solver of transient paths
	paths     *paths.Result                      // solved paths, effect conditions, bodies by what they hold
}

// Config returns the configuration the model was built with.
func (m *Model) Config() *Config { return m.cfg }

// Pkg returns the package under analysis.
func (m *Model) Pkg() *types.Package { return m.pkg }

// Info returns the package's type information.
func (m *Model) Info() *types.Info { return m.info }

// Files returns the package's syntax.
func (m *Model) Files() []*ast.File { return m.files }

func run(pass *analysis.Pass, cfg *Config, h hooks) (any, error) {
	m := &Model{
		cfg:      cfg,
		hooks:    h,
		fset:     pass.Fset,
		files:    pass.Files,
		imported: importFacts(pass),
		pkg:      pass.Pkg,
		info:     pass.TypesInfo,
	}
	if m.info == nil {
		m.info = &types.Info{}
	}
	m.testFuncs = syntax.TestFuncs(pass.Fset, m.info, pass.Files)

	var decls []*ast.FuncDecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !m.testFuncs[fd] {
				decls = append(decls, fd)
			}
		}
	}
	m.decls = decls
	m.declByFn = make(map[*types.Func]*ast.FuncDecl, len(decls))
	for _, d := range decls {
		if fn, ok := m.info.Defs[d.Name].(*types.Func); ok {
			m.declByFn[fn] = d
		}
	}
	m.noReturn = cfgs.NoReturn(m.info, decls, func(fn *types.Func) bool { return m.imported.noReturn[fn] })
	m.graphs = cfgs.New(m.info, func(fn *types.Func) bool {
		return cfgs.Intrinsic(fn) || m.noReturn[fn] || m.imported.noReturn[fn]
	}, cfgs.OnBuild(h.build))
	m.syn = syntax.NewIndex(pass.Files, m.testFuncs)
	carriers := carrierTypes(cfg, m.info, pass.Files)
	if len(carriers) > 0 {
		pass.ExportPackageFact(&carrierTypesFact{Types: carriers})
	}
	m.msgs = messages.Build(m.info, m.pkg, cfg.Profiles, m.syn, m.defs)
	m.gate = m.gateOf(decls, importsCarrier(pass))
	m.mayHandle = slices.ContainsFunc(decls, func(d *ast.FuncDecl) bool { return d.Name.IsExported() && handlers.IsCandidate(m.info, m.msgs, d) })
	m.prod = producers.Build(m.info, m.pkg, cfg.CarrierMethod, m.gate.MayRetry, m.imported.producers, m.defs, m.returnsOf, decls, m.syn.Lits)
	m.dlq = dlq.Build(dlq.Inputs{
		Info: m.info, Pkg: m.pkg,
		Config: dlq.Config{DLQName: cfg.DLQName, DLQSubject: cfg.DLQSubject, Funcs: cfg.DLQFuncs},
		Names:  m.gate.DLQNames, MayWrite: m.gate.MayWriteDLQ, Imported: m.imported.dlq,
		Msgs: m.msgs, Defs: m.defs, CallsOf: m.callsOf, Decls: decls, Lits: m.syn.Lits,
		Files: m.files, TestFuncs: m.testFuncs,
	})
	infer := m.gate.MaySettle || slices.ContainsFunc(decls, handlers.HasDirective)
	m.set = settle.Build(settle.Inputs{
		Fset: m.fset, Info: m.info, Pkg: m.pkg, MaySettle: m.gate.MaySettle, Infer: infer, Imported: m.imported.effects,
		Msgs: m.msgs, DLQ: m.dlq, Defs: m.defs, CallsOf: m.callsOf, DeclByFn: m.declByFn, Decls: decls, Lits: m.syn.Lits,
	})
	hd, err := handlers.Build(handlers.Inputs{
		Fset: m.fset, Info: m.info, Pkg: m.pkg, Decode: cfg.Decode, MaySettle: m.gate.MaySettle, MayHandle: m.mayHandle,
		Infer: infer, Imported: m.imported.handlers, Syn: m.syn, Msgs: m.msgs, DLQ: m.dlq, Set: m.set, Defs: m.defs,
		ReturnsOf: m.returnsOf, DeclByFn: m.declByFn, Decls: decls,
	})
	if err != nil {
		return nil, err
	}
	m.hd = hd
	m.tr = transient.Build(transient.Inputs{
		Info: m.info, Pkg: m.pkg, CarrierMethod: cfg.CarrierMethod, Predicate: cfg.TransientPredicate, Prod: m.prod,
		Imported: m.imported.classifiers, Defs: m.defs, Graphs: m.graphs, OnSolve: h.solve,
		Classify: m.gate.MayClassify, Decls: decls,
	})
	if m.gate.MayRetry || m.gate.MaySettle || m.gate.MayWriteDLQ || m.gate.MayClassify || m.mayHandle {
		m.defs() // the checks read it
	}
	m.freeze()
	m.paths = paths.Build(paths.Inputs{
		Info: m.info, MayRetry: m.gate.MayRetry, Solve: m.gate.MayRetry || m.gate.MaySettle, Syn: m.syn, Msgs: m.msgs,
		Prod: m.prod, Set: m.set, Hd: m.hd, Tr: m.tr, Graphs: m.graphs, Defs: m.defs, Decls: decls,
	})
	m.exportFacts(pass)
	m.graphs.Freeze()
	m.syn.Trim(m.gate.MayRetry || m.gate.MaySettle || m.gate.MayWriteDLQ || m.gate.MayClassify || m.mayHandle)
	return m, nil
}

// exportFacts exports the facts inferred for the package's own functions,
// in a deterministic order.
func (m *Model) exportFacts(pass *analysis.Pass) {
	for _, fn := range sortedFuncs(m.noReturn) {
		pass.ExportObjectFact(fn, new(cfgs.NoReturnFact))
	}
	for _, fn := range sortedFuncs(m.prod.Producers()) {
		pass.ExportObjectFact(fn, new(producerFact))
	}
	for _, v := range m.prod.RetryableVars() { // empty unless mayRetry
		pass.ExportObjectFact(v, new(retryableVarFact))
	}
	for _, fn := range sortedKeys(m.prod.Wraps()) {
		params := append([]int(nil), m.prod.Wraps()[fn]...)
		sort.Ints(params)
		pass.ExportObjectFact(fn, &wrapsFact{Params: params})
	}
	m.exportDLQFacts(pass)
	m.exportHandlerFacts(pass)
	m.exportMiddlewareFacts(pass)
	m.exportHandlerCandidateFacts(pass)
	m.exportEffectsFacts(pass)
	m.exportClassifierFacts(pass)
}

func sortedFuncs(set map[*types.Func]bool) []*types.Func {
	var fns []*types.Func
	for fn, ok := range set {
		if ok {
			fns = append(fns, fn)
		}
	}
	sortByPos(fns)
	return fns
}

func sortedKeys[V any](m map[*types.Func]V) []*types.Func {
	var fns []*types.Func
	for fn := range m {
		fns = append(fns, fn)
	}
	sortByPos(fns)
	return fns
}

func sortByPos(fns []*types.Func) {
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
}

// Report reports d through pass. A check's pass (checks.New) drops a
// diagnostic that a suppression directive covers or that lies in a
// generated file, and records the directive as used.
func (m *Model) Report(pass *analysis.Pass, d analysis.Diagnostic) { pass.Report(d) }

// DLQFuncs returns the functions the configuration names as DLQ writers
// (dlq-funcs).
func (m *Model) DLQFuncs() []FuncName { return m.cfg.DLQFuncs }

func (m *Model) exportDLQFacts(pass *analysis.Pass) {
	for _, fn := range sortedFuncs(m.dlq.Writers()) {
		pass.ExportObjectFact(fn, &dLQWriterFact{Kind: m.dlq.Kind(fn)})
	}
}
