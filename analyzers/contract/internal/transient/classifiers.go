package transient

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// inferClassifiers finds, to a fixpoint, the package's functions that
// classify an error as transient: func(error...) (time.Duration, bool)
// whose ok is true only where a retry classification of the error
// succeeded, and func(error...) bool that is true only there.
func (m *Result) inferClassifiers(decls []*ast.FuncDecl) {
	m.classifiers = make(map[*types.Func]ClassifierKind)
	m.solved = make(map[*ast.BlockStmt]*pathAnalysis)
	type candidate struct {
		decl  *ast.FuncDecl
		fn    *types.Func
		kind  ClassifierKind
		param *types.Var
	}
	var cands []candidate
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil {
			continue
		}
		sig := fn.Type().(*types.Signature)
		kind := classifierShape(sig)
		if kind == 0 {
			continue
		}
		for i := 0; i < sig.Params().Len(); i++ {
			if p := sig.Params().At(i); gotypes.IsErrorish(p.Type()) {
				cands = append(cands, candidate{d, fn, kind, p})
				break
			}
		}
	}
	for round := 0; round < defs.MaxDepth; round++ {
		changed := false
		for _, c := range cands {
			if m.classifiers[c.fn] == 0 && m.classifies(c.decl.Body, c.kind, c.param) {
				m.classifiers[c.fn] = c.kind
				m.dropSolvedUsing(c.fn)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// dropSolvedUsing forgets the solutions kept for bodies that name fn, a
// function just found to be a classifier: solved before, they did not see
// it as one. The solutions kept are exact otherwise: a solve reads the
// producers, the flow index and the CFGs, final before the classifier
// inference starts, and the classifiers of the functions it calls.
func (m *Result) dropSolvedUsing(fn *types.Func) {
	for body := range m.solved {
		ast.Inspect(body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && m.info.Uses[id] == fn {
				delete(m.solved, body)
				return false
			}
			return true
		})
	}
}

// classifierShape returns the kind of classifier a signature could be.
func classifierShape(sig *types.Signature) ClassifierKind {
	res := sig.Results()
	switch {
	case res.Len() == 1 && gotypes.IsBool(res.At(0).Type()):
		return PredicateClassifier
	case res.Len() == 2 && gotypes.IsDuration(res.At(0).Type()) && gotypes.IsBool(res.At(1).Type()):
		return DelayClassifier
	}
	return 0
}

// classifies reports whether every return of body that can report true
// (the ok of a delay classifier, a predicate's result) does so only where
// a retry classification of param succeeded, and one return can.
func (m *Result) classifies(body *ast.BlockStmt, kind ClassifierKind, param *types.Var) bool {
	p := m.solved[body]
	if p == nil {
		p = m.newPathAnalysis(body)
		m.solved[body] = p // for the next round and Solve, unless dropSolvedUsing drops it
	}
	if !p.converged {
		return false
	}
	canBeTrue, ok := false, true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			ref, found := p.returns[n]
			if !found {
				return false
			}
			st := p.stateBefore(ref)
			if st == nil {
				return false // unreachable
			}
			var result ast.Expr
			switch {
			case kind == PredicateClassifier && len(n.Results) == 1:
				result = n.Results[0]
			case kind == DelayClassifier && len(n.Results) == 2:
				result = n.Results[1]
			case kind == DelayClassifier && len(n.Results) == 1:
				// return RetryDelay(err): another delay classifier of param.
				call, isCall := ast.Unparen(n.Results[0]).(*ast.CallExpr)
				if !isCall {
					ok = false
					return false
				}
				fn := gotypes.StaticCallee(m.info, call)
				if m.ClassifierKind(fn) != DelayClassifier {
					ok = false
				} else if arg := errorArg(m.info, fn, call); arg == nil || p.errVar(arg) != param {
					ok = false
				}
				canBeTrue = true
				return false
			default:
				ok = false // bare return of named results: not followed
				return false
			}
			if isFalse(m.info, result) {
				return false
			}
			canBeTrue = true
			probe := st.clone()
			p.refine(probe, result, true)
			if !probe.errs[param].transient {
				ok = false
			}
			return false
		}
		return true
	})
	return ok && canBeTrue
}

func isFalse(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// MayClassify reports whether a function of signature sig can be a
// classifier (inferClassifiers' candidates): the shape of one, and an
// error parameter.
func MayClassify(sig *types.Signature) bool {
	if classifierShape(sig) == 0 {
		return false
	}
	for i := range sig.Params().Len() {
		if gotypes.IsErrorish(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}
