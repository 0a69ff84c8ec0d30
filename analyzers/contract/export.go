package contract

import (
	"path/filepath"
	"slices"
	"sort"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"golang.org/x/tools/go/analysis"
)

// exportEffectsFacts exports an effectsFact for each function of the
// package with effects, with each settlement's place relative to the
// function's declaration, and its condition.
func (m *Model) exportEffectsFacts(pass *analysis.Pass) {
	effects := m.set.Effects()
	for _, fn := range sortedKeys(effects) {
		f := &effectsFact{}
		decl := m.fset.Position(fn.Pos())
		conds := m.paths.Conds()[fn]
		for i, e := range effects[fn] {
			fe := settle.Effect{Param: e.Param, Settlement: e.Settlement}
			if i < len(conds) {
				fe.Cond = conds[i]
			}
			if at := m.fset.Position(e.Site); e.Site.IsValid() && fn.Pos().IsValid() && at.Filename == decl.Filename && at.Line >= decl.Line {
				fe.Line, fe.Col = at.Line-decl.Line, at.Column
			}
			f.Effects = append(f.Effects, fe)
		}
		pass.ExportObjectFact(fn, f)
	}
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
	for _, fn := range sortedKeys(m.hd.FieldFacts()) {
		pass.ExportObjectFact(fn, m.hd.FieldFacts()[fn])
	}
	m.exportEffectsFacts(pass)
	m.exportClassifierFacts(pass)
}

func (m *Model) exportDLQFacts(pass *analysis.Pass) {
	for _, fn := range sortedFuncs(m.dlq.Writers()) {
		pass.ExportObjectFact(fn, &dLQWriterFact{Kind: m.dlq.Kind(fn)})
	}
}

// exportClassifierFacts exports a classifierFact for each classifier of
// the package, in source order.
func (m *Model) exportClassifierFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.tr.Classifiers()) {
		pass.ExportObjectFact(fn, &classifierFact{Kind: m.tr.Classifiers()[fn]})
	}
}

// exportMiddlewareFacts exports a middlewareFact for each middleware
// function of the package.
func (m *Model) exportMiddlewareFacts(pass *analysis.Pass) {
	fns := sortedKeys(m.hd.Middleware())
	for _, fn := range sortedKeys(m.hd.Factories()) {
		if _, ok := m.hd.Middleware()[fn]; !ok {
			fns = append(fns, fn)
		}
	}
	for _, fn := range fns {
		pass.ExportObjectFact(fn, &middlewareFact{Params: slices.Clone(m.hd.Middleware()[fn]), Factory: m.hd.Factories()[fn]})
	}
}

// exportHandlerFacts exports a handlerFact for each function of the
// package with handler parameters.
func (m *Model) exportHandlerFacts(pass *analysis.Pass) {
	fns := m.hd.WithHandlerParams()
	sortByPos(fns)
	for _, fn := range fns {
		params, ack, payload := m.hd.HandlerParams(fn)
		f := &handlerFact{Params: slices.Clone(params), Payload: slices.Clone(payload), OnError: m.hd.HandlerOnError(fn)}
		decl, at := m.fset.Position(fn.Pos()), m.fset.Position(ack)
		switch {
		case at.Filename == decl.Filename && at.Line >= decl.Line:
			f.Line, f.Col = at.Line-decl.Line, at.Column
		case at.IsValid():
			f.File, f.Line, f.Col = filepath.Base(at.Filename), at.Line, at.Column
		}
		pass.ExportObjectFact(fn, f)
	}
}
