package contract

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/paths"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
	"golang.org/x/tools/go/analysis"
)

// DelayExpr returns the source text of the delay a transient path's
// classification bound, when it is in scope at pos: "d", or
// "rd.RetryDelay()" for a carrier variable; "" otherwise.
func (m *Model) DelayExpr(t *TransientPath, pos token.Pos) string {
	if t == nil || m.pkg == nil {
		return ""
	}
	v, suffix := t.Delay, ""
	if v == nil && t.Carrier != nil {
		v, suffix = t.Carrier, "."+m.cfg.CarrierMethod+"()"
	}
	if v == nil || v.Name() == "_" || v.Name() == "" {
		return ""
	}
	scope := m.pkg.Scope().Innermost(pos)
	if scope == nil {
		return ""
	}
	if _, obj := scope.LookupParent(v.Name(), pos); obj != v {
		return ""
	}
	return v.Name() + suffix
}

// exportClassifierFacts exports a classifierFact for each classifier of
// the package, in source order.
func (m *Model) exportClassifierFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.tr.Classifiers()) {
		pass.ExportObjectFact(fn, &classifierFact{Kind: m.tr.Classifiers()[fn]})
	}
}

// ErrorPaths is the transient-path analysis of one function body.
type ErrorPaths = transient.ErrorPaths

// PathFacts is what holds on every path that reaches a point.
type PathFacts = transient.PathFacts

// TransientPath says why a path is transient.
type TransientPath = transient.TransientPath

// ErrorBranch is the unclassified error branch of a retryable producer.
type ErrorBranch = transient.ErrorBranch

func (m *Model) exportHandlerCandidateFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.paths.Candidates()) {
		f := &handlerCandidateFact{}
		for _, r := range m.paths.Candidates()[fn] {
			if line, col, ok := m.Offset(fn, r.Pos); ok {
				f.Returns = append(f.Returns, CandidateReturn{Line: line, Col: col, Err: r.Err, Producer: r.Producer})
			}
		}
		if len(f.Returns) > 0 {
			pass.ExportObjectFact(fn, f)
		}
	}
}

// ParamsOf returns the parameters a function type declares, in order (nil
// for an unnamed or blank one).
func (m *Model) ParamsOf(ft *ast.FuncType) []*types.Var { return messages.ParamVars(m.info, ft) }

// Offset returns pos relative to fn's declaration (line offset, column),
// as Site reads it; ok is false when pos is not in fn's file after it.
func (m *Model) Offset(fn *types.Func, pos token.Pos) (line, col int, ok bool) {
	decl, at := m.fset.Position(fn.Pos()), m.fset.Position(pos)
	if at.Filename != decl.Filename || at.Line < decl.Line {
		return 0, 0, false
	}
	return at.Line - decl.Line, at.Column, true
}

// HelperSettle is a call of a helper that settles a message it is given,
// with the condition under which it does.
type HelperSettle = paths.HelperSettle

// HelperSettlesWith reports whether a helper call settles its message
// given the error argument it receives (paths.HelperSettlesWith).
func HelperSettlesWith(info *types.Info, h HelperSettle, errVar *types.Var) bool {
	return paths.HelperSettlesWith(info, h, errVar)
}
