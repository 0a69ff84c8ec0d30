package handlers

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Bool handlers (CONTRACT.md version 3, "Handlers, wider"): a caller that
// calls its func-typed parameter returning bool, Acks the message when it
// returns true and Naks or Terms it when it returns false, makes that
// parameter a handler parameter, and `return true` in a function passed
// there is an Ack wherever `return nil` is one. Both sides are required:
// a caller that Acks whatever the function says (a filter that skips a
// message by acking it) turns no `return true` into an Ack the function
// decides. The shapes followed: if p(...) { Ack } else { Nak or Term },
// if !p(...) { Nak or Term; return }, then an Ack after it, and the same
// with a variable whose one reaching definition is the call.

// inferBoolParams marks the package's functions that Ack when a
// func-typed parameter returns true and Nak or Term when it returns false,
// calling it or storing it in a struct field that a function of the
// package calls so (the worker pool whose constructor keeps the handler).
func (m *Result) inferBoolParams(decls []*ast.FuncDecl) {
	fields := m.boolFields(decls)
	for f, ack := range fields {
		m.handlerFieldAcks[f] = ack
	}
	for _, d := range decls {
		fn, _ := m.info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil || !hasBoolFuncParam(fn) {
			continue
		}
		for i, p := range messages.ParamVars(m.info, d.Type) {
			if p == nil || !returnsBool(p.Type()) {
				continue
			}
			ack, payload := m.acksOnTrue(d.Body, p), []int(nil)
			if ack.IsValid() {
				payload = m.payloadArgs(d.Body, p)
			} else if at, field := storedInHandlerField(m.info, d.Body, p, fields); field != nil {
				ack, payload = at, m.fieldPayload(field)
			}
			if ack.IsValid() {
				hp := m.handlerParams[fn]
				if hp == nil {
					hp = &handlerParams{ack: ack, payload: payload}
					m.handlerParams[fn] = hp
				}
				hp.params = append(hp.params, i)
			}
		}
	}
}

// boolFields returns the func-typed struct fields returning a bool that a
// function of the package calls, Acking on true and Naking or Terming on
// false, with the Ack.
func (m *Result) boolFields(decls []*ast.FuncDecl) map[*types.Var]token.Pos {
	out := make(map[*types.Var]token.Pos)
	called := make(map[*ast.FuncDecl][]*types.Var)
	for _, s := range m.syn.Sites {
		call, ok := s.Node.(*ast.CallExpr)
		d := m.syn.DeclOf[s.Body]
		if !ok || d == nil {
			continue
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if sn := m.info.Selections[sel]; sn != nil && sn.Kind() == types.FieldVal && returnsBool(sn.Type()) {
			if f := sn.Obj().(*types.Var); !slices.Contains(called[d], f) {
				called[d] = append(called[d], f)
			}
		}
	}
	for _, d := range decls {
		for _, f := range called[d] {
			if _, done := out[f]; !done && d.Body != nil {
				if ack := m.acksOnTrue(d.Body, f); ack.IsValid() {
					out[f] = ack
				}
			}
		}
	}
	return out
}

func hasBoolFuncParam(fn *types.Func) bool {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if returnsBool(params.At(i).Type()) {
			return true
		}
	}
	return false
}

// returnsBool reports whether t is a func type whose last result is a
// bool.
func returnsBool(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() > 0 && gotypes.IsBool(sig.Results().At(sig.Results().Len()-1).Type())
}

// acksOnTrue returns the Ack of body that runs where a call of p (a
// parameter or a struct field) returned true, when the false side Naks or
// Terms, or token.NoPos.
func (m *Result) acksOnTrue(body *ast.BlockStmt, p *types.Var) token.Pos {
	ack := token.NoPos
	visit := func(list []ast.Stmt) {
		for i, s := range list {
			ifs, ok := s.(*ast.IfStmt)
			if !ok || ack.IsValid() {
				continue
			}
			negated, ok := m.testsBoolCall(ifs, p)
			if !ok {
				continue
			}
			var onTrue, onFalse ast.Node = ifs.Body, ifs.Else
			if negated {
				onTrue, onFalse = ifs.Else, ifs.Body
			}
			if onTrue == nil && negated && leavesBlock(ifs.Body) {
				onTrue = &ast.BlockStmt{List: list[i+1:]}
			}
			if onFalse == nil && !negated && leavesBlock(ifs.Body) {
				onFalse = &ast.BlockStmt{List: list[i+1:]} // if p(...) { Ack; return }; Nak
			}
			if onTrue != nil && onFalse != nil && m.retriesOrTerms(onFalse) {
				ack = m.firstAck(onTrue)
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			visit(n.List)
		case *ast.CaseClause:
			visit(n.Body)
		}
		return !ack.IsValid()
	})
	return ack
}

// testsBoolCall reports whether the condition of s is a call of p, or its
// negation, directly or through a variable whose one reaching definition
// is the call.
func (m *Result) testsBoolCall(s *ast.IfStmt, p *types.Var) (negated, ok bool) {
	cond := ast.Unparen(s.Cond)
	if u, isNot := cond.(*ast.UnaryExpr); isNot && u.Op == token.NOT {
		negated, cond = true, ast.Unparen(u.X)
	}
	if id, isIdent := cond.(*ast.Ident); isIdent {
		v, isVar := m.info.Uses[id].(*types.Var)
		if !isVar {
			return false, false
		}
		defs := m.defs().Reaching(v, s.Cond.Pos())
		if len(defs) != 1 || defs[0].RHS == nil {
			return false, false
		}
		cond = ast.Unparen(defs[0].RHS)
	}
	call, isCall := cond.(*ast.CallExpr)
	return negated, isCall && m.callsVar(call, p)
}

// retriesOrTerms reports whether n holds a Nak, NakWithDelay, Term or
// TermWithReason call (outside function literals).
func (m *Result) retriesOrTerms(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if ack, ok := m.msgs.AsAckCall(n); ok {
				switch ack.Settlement {
				case profile.RetryNow, profile.RetryLater, profile.Terminate:
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isTrueReturn reports whether ret returns the constant true from a bool
// handler.
func (m *Result) isTrueReturn(ret *ast.ReturnStmt) bool {
	sc, ok := m.varReturns[ret]
	if !ok || len(ret.Results) == 0 {
		return false
	}
	tv, ok := m.info.Types[ret.Results[len(ret.Results)-1]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool || !constant.BoolVal(tv.Value) {
		return false
	}
	h := m.handlers[sc.body]
	return h != nil && h.Bool
}
