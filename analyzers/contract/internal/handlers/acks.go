package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Where a handler caller Acks on nil: the tests of a handler's error
// against nil, in the caller or in a helper it passes the error to, and
// the first Ack on the nil side.

// acksOnNil returns the position of an Ack in body that runs where a
// handler's error (herr) is nil, or token.NoPos.
func (m *Result) acksOnNil(body *ast.BlockStmt, herr handlerErr) token.Pos {
	ack := token.NoPos
	var visitList func(list []ast.Stmt)
	visitList = func(list []ast.Stmt) {
		for i, s := range list {
			if ack.IsValid() {
				return
			}
			if ack = m.acksInHelper(s, herr); ack.IsValid() {
				return // settle(msg, err), a helper that Acks when err is nil
			}
			ifs, ok := s.(*ast.IfStmt)
			if !ok || !m.testsCallOf(ifs, herr) {
				continue
			}
			bin := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
			rest := &ast.BlockStmt{List: list[i+1:]}
			switch {
			case bin.Op == token.EQL:
				ack = m.firstAck(ifs.Body)
				if ifs.Else != nil {
					m.noteOnError(ack, ifs.Else)
				} else if leavesBlock(ifs.Body) {
					m.noteOnError(ack, rest)
				}
			case ifs.Else != nil:
				ack = m.firstAck(ifs.Else)
				m.noteOnError(ack, ifs.Body)
			case leavesBlock(ifs.Body):
				ack = m.firstAck(rest)
				m.noteOnError(ack, ifs.Body)
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			visitList(n.List)
		case *ast.CaseClause:
			visitList(n.Body)
		case *ast.CommClause:
			visitList(n.Body)
		case *ast.SwitchStmt:
			ack = m.acksInNilCase(n, herr)
		}
		return !ack.IsValid()
	})
	return ack
}

// acksInNilCase returns the first Ack of the case `case err == nil:` of a
// switch without a tag, where err holds a handler call's error, or
// token.NoPos.
func (m *Result) acksInNilCase(s *ast.SwitchStmt, herr handlerErr) token.Pos {
	if s.Tag != nil {
		return token.NoPos
	}
	for _, st := range s.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok || len(cc.List) != 1 {
			continue
		}
		if bin, ok := ast.Unparen(cc.List[0]).(*ast.BinaryExpr); ok && bin.Op == token.EQL && m.testsCallOf(&ast.IfStmt{If: cc.Case, Cond: cc.List[0]}, herr) {
			ack := m.firstAck(&ast.BlockStmt{List: cc.Body})
			var others []ast.Node // the clauses where the error is not nil
			for _, other := range s.Body.List {
				if other != st {
					others = append(others, other)
				}
			}
			m.noteOnError(ack, others...)
			return ack
		}
	}
	return token.NoPos
}

// testsCallOf reports whether an if statement tests, against nil, the
// error of a call of p: if err := p(...); err != nil, if p(...) != nil, or
// a variable whose one reaching definition is such a call; in a helper
// the handler's error is passed to, its parameter (handlerErr.param) with
// no definition before the test.
func (m *Result) testsCallOf(s *ast.IfStmt, herr handlerErr) bool {
	bin, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok || (bin.Op != token.NEQ && bin.Op != token.EQL) {
		return false
	}
	x := bin.X
	if gotypes.IsNilExpr(m.info, x) {
		x = bin.Y
	} else if !gotypes.IsNilExpr(m.info, bin.Y) {
		return false
	}
	isCallOfP := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		return ok && herr.isCall(call)
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		return isCallOfP(x)
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		defs := m.defs().Reaching(v, s.Cond.Pos())
		if len(defs) == 0 {
			return herr.param != nil && v == herr.param
		}
		return len(defs) == 1 && defs[0].RHS != nil && isCallOfP(defs[0].RHS)
	}
	return false
}

// firstAck returns the first Ack (done settlement of an ack method) in n,
// outside function literals, or token.NoPos.
func (m *Result) firstAck(n ast.Node) token.Pos {
	pos := token.NoPos
	ast.Inspect(n, func(n ast.Node) bool {
		if pos.IsValid() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if ack, ok := m.msgs.AsAckCall(n); ok && ack.Settlement == profile.Done {
				pos = n.Pos()
			} else if site := m.set.CertainAckInside(n); site.IsValid() {
				pos = site
			}
		}
		return true
	})
	return pos
}

// A bus that settles through a helper: the dispatch calls the handler,
// then passes its error to a function of the package that Acks when it is
// nil (err = h(ctx, ev); b.settle(ctx, msg, ev, err)). The Ack on nil is
// the helper's; the handler parameter is the bus's all the same. One
// level: the helper is judged on its error parameter as a handler caller
// is on the call (acksOnNil), and what it passes on is not followed (a
// parameter has no definition that is a handler's call).

// handlerErr says which errors in a body are a handler's: the result of a
// call isCall accepts, or, in a helper the handler's error is passed to,
// the parameter param (nil in the handler's caller itself).
type handlerErr struct {
	isCall func(*ast.CallExpr) bool
	param  *types.Var
}

// acksInHelper returns the Ack of a helper of the package that statement
// s calls with a handler's error, where the helper Acks when that error
// parameter is nil, or token.NoPos.
func (m *Result) acksInHelper(s ast.Stmt, herr handlerErr) token.Pos {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return token.NoPos
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return token.NoPos
	}
	fn := gotypes.StaticCallee(m.info, call)
	if fn == nil {
		return token.NoPos
	}
	d := m.declOf(fn)
	if d == nil || d.Body == nil {
		return token.NoPos
	}
	params := messages.ParamVars(m.info, d.Type)
	for j, a := range call.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok || j >= len(params) || params[j] == nil || !gotypes.IsError(params[j].Type()) {
			continue
		}
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok {
			continue
		}
		defs := m.defs().Reaching(v, call.Pos())
		if len(defs) != 1 || defs[0].RHS == nil {
			continue
		}
		if rhs, ok := ast.Unparen(defs[0].RHS).(*ast.CallExpr); ok && herr.isCall(rhs) {
			return m.acksOnNil(d.Body, handlerErr{isCall: func(*ast.CallExpr) bool { return false }, param: params[j]})
		}
	}
	return token.NoPos
}
