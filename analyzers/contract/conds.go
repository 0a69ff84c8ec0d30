package contract

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
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
