package contract

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"runtime/debug"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/paths"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
)

// Analyzer is the contract model with the default configuration, its
// options bound to its flags. Checks require it and read its *Model.
var Analyzer = New(DefaultConfig())

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
			new(cfgs.NoReturnFact), new(handlerFact), new(middlewareFact),
			new(carrierTypesFact), new(dlqSubjectsFact), new(handlers.FieldFact),
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
	carriers := syntax.CarrierTypes(m.info, pass.Files, cfg.CarrierMethod)
	if len(carriers) > 0 {
		pass.ExportPackageFact(&carrierTypesFact{Types: carriers})
	}
	if consts := syntax.DLQSubjectConsts(m.syn, m.info, cfg.DLQSubject); len(consts) > 0 {
		pass.ExportPackageFact(&dlqSubjectsFact{Consts: consts})
	}
	m.msgs = messages.Build(m.info, m.pkg, cfg.Profiles, m.syn, m.defs, m.files, m.testFuncs)
	m.gate = m.gateOf(pass, decls, importsFact(pass, new(carrierTypesFact)))
	m.mayHandle = slices.ContainsFunc(decls, func(d *ast.FuncDecl) bool { return d.Name.IsExported() && handlers.IsCandidate(m.info, m.msgs, d) })
	m.prod = producers.Build(m.info, m.pkg, cfg.CarrierMethod, m.gate.MayRetry, m.imported.producers, m.defs, m.returnsOf, decls, m.syn.Lits)
	m.dlq = dlq.Build(dlq.Inputs{
		Info: m.info, Pkg: m.pkg,
		Config: dlq.Config{DLQName: cfg.DLQName, DLQSubject: cfg.DLQSubject, Funcs: cfg.DLQFuncs},
		Names:  m.gate.DLQNames, MayWrite: m.gate.MayWriteDLQ, Imported: m.imported.dlq,
		Msgs: m.msgs, Defs: m.defs, CallsOf: m.callsOf, Decls: decls, Lits: m.syn.Lits,
		Sites: m.syn.Sites, TestFuncs: m.testFuncs,
	})
	infer := m.gate.MaySettle || slices.ContainsFunc(decls, handlers.HasDirective)
	m.set = settle.Build(settle.Inputs{
		Fset: m.fset, Info: m.info, Pkg: m.pkg, MaySettle: m.gate.MaySettle, Infer: infer, Imported: m.imported.effects,
		Msgs: m.msgs, DLQ: m.dlq, Defs: m.defs, CallsOf: m.callsOf, DeclByFn: m.declByFn, Decls: decls, Lits: m.syn.Lits,
	})
	hd, err := handlers.Build(handlers.Inputs{
		Fset: m.fset, Info: m.info, Pkg: m.pkg, Decode: cfg.Decode, DecodeFuncs: cfg.DecodeFuncs, MaySettle: m.gate.MaySettle, MayHandle: m.mayHandle,
		Infer: infer, Imported: m.imported.handlers, Syn: m.syn, Msgs: m.msgs, DLQ: m.dlq, Set: m.set, Defs: m.defs,
		ReturnsOf: m.returnsOf, DeclByFn: m.declByFn, Decls: decls, MayRetry: m.gate.MayRetry,
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
		Fset: m.fset, Info: m.info, MayRetry: m.gate.MayRetry, Solve: m.gate.MayRetry || m.gate.MaySettle, Syn: m.syn, Msgs: m.msgs,
		Prod: m.prod, Set: m.set, Hd: m.hd, Tr: m.tr, Graphs: m.graphs, Defs: m.defs, Decls: decls,
	})
	m.exportFacts(pass)
	m.graphs.Freeze()
	m.syn.Trim(m.gate.MayRetry || m.gate.MaySettle || m.gate.MayWriteDLQ || m.gate.MayClassify || m.mayHandle)
	return m, nil
}
