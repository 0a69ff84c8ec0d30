package paths

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
)

// inferEffectConds decides, from the transient paths of each helper's
// body, when its direct settlements happen: the condition of each effect
// of set.Effects, in the same order, kept apart from the settle stage,
// which is complete before the paths are solved. An effect through
// another helper keeps settle.CondUnknown.
func (m *Result) inferEffectConds(decls []*ast.FuncDecl) {
	m.conds = make(map[*types.Func][]settle.EffectCond)
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		effects := m.set.Effects()[fn]
		if fn == nil || len(effects) == 0 {
			continue
		}
		var errVar *types.Var
		if i := settle.FirstErrorParam(fn); i >= 0 {
			errVar = fn.Signature().Params().At(i)
		}
		paths := m.paths[d.Body]
		conds := make([]settle.EffectCond, len(effects))
		for i, e := range effects {
			conds[i] = effectCond(d.Body, e, errVar, paths, m.msgs.AsAckCall)
		}
		m.conds[fn] = conds
	}
}

// effectCond is the condition of effect e of a helper with body, judged
// on its error parameter errVar (nil when it has none).
func effectCond(body *ast.BlockStmt, e settle.HelperEffect, errVar *types.Var, paths *transient.ErrorPaths,
	asAck func(*ast.CallExpr) (messages.AckCall, bool)) settle.EffectCond {
	if e.Call == nil {
		return settle.CondUnknown
	}
	if _, direct := asAck(e.Call); !direct {
		return settle.CondUnknown
	}
	if errVar == nil {
		if settle.Unconditional(body, e.Call) {
			return settle.CondAlways
		}
		return settle.CondUnknown
	}
	vf, ok := paths.VarAt(e.Call, errVar)
	switch {
	case !ok:
	case vf.Nil:
		return settle.CondNil
	case vf.Transient:
		return settle.CondAfterRetry
	case vf.NoIntent || vf.NonNil && vf.Classified:
		return settle.CondAfterNoRetry
	case vf.NonNil:
		return settle.CondNonNilUnclassed
	case !vf.Classified && settle.Unconditional(body, e.Call):
		return settle.CondAlways
	}
	return settle.CondUnknown
}

// Settlements is settle's Settlements with the conditions of the
// package's own helpers, known once the paths are solved.
func (m *Result) Settlements(call *ast.CallExpr) []settle.Settlement {
	out := m.set.Settlements(call)
	for i, s := range out {
		if !s.Helper || s.Cond != settle.CondUnknown || s.Local == nil {
			continue
		}
		if conds := m.conds[s.Local]; s.Index < len(conds) {
			out[i].Cond = conds[s.Index]
		}
	}
	return out
}
