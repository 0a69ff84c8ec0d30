package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// A nil named result (CONTRACT.md version 3, "Handlers, wider"): a naked
// return, or `return err` where err is a named or local error that is nil
// on that path, returns nil as surely as `return nil` does, and the
// handler's caller Acks it. "Nil on that path" is decided without guessing:
//
//   - every definition of err that may reach the return is the literal nil
//     or the zero value (a named result never assigned, var err error);
//   - or the return sits where a test of err said nil: the body of
//     `if err == nil`, the else of `if err != nil`, or after an
//     `if err != nil { return ... }` (a body that leaves the statement
//     list) with no definition of err in between.
//
// Anything else (a definition from a call, a parameter, a variable of an
// enclosing function, a definition in a deferred literal) is not known to
// be nil, and the return is not a `return nil`: doubtful cases stay quiet.

// indexVarReturns records the function of each return of the package
// whose error result is a variable or that is naked in a function with
// named results: the only returns isNilVarReturn looks at.
func (m *Result) indexVarReturns() {
	m.varReturns = make(map[*ast.ReturnStmt]retScope)
	var lits map[*ast.BlockStmt]*ast.FuncType
	for _, s := range m.syn.Sites {
		ret, ok := s.Node.(*ast.ReturnStmt)
		if !ok || s.Body == nil {
			continue
		}
		if len(ret.Results) > 0 {
			if _, ok := ast.Unparen(ret.Results[len(ret.Results)-1]).(*ast.Ident); !ok {
				continue
			}
		}
		var typ *ast.FuncType
		if d := m.syn.DeclOf[s.Body]; d != nil && d.Body == s.Body {
			typ = d.Type
		} else {
			if lits == nil {
				lits = make(map[*ast.BlockStmt]*ast.FuncType, len(m.syn.Lits))
				for _, l := range m.syn.Lits {
					lits[l.Body] = l.Type
				}
			}
			typ = lits[s.Body]
		}
		if typ == nil || typ.Results == nil || (len(ret.Results) == 0 && len(typ.Results.List[0].Names) == 0) {
			continue
		}
		m.varReturns[ret] = retScope{body: s.Body, typ: typ}
	}
}

// isNilVarReturn reports whether ret returns, as its last (error) result,
// a variable that is nil on the path to ret.
func (m *Result) isNilVarReturn(ret *ast.ReturnStmt) bool {
	sc, ok := m.varReturns[ret]
	if !ok {
		return false
	}
	var v *types.Var
	if len(ret.Results) == 0 {
		last := sc.typ.Results.List[len(sc.typ.Results.List)-1]
		if len(last.Names) == 0 {
			return false
		}
		v, _ = m.info.Defs[last.Names[len(last.Names)-1]].(*types.Var)
	} else {
		v, _ = m.info.Uses[ast.Unparen(ret.Results[len(ret.Results)-1]).(*ast.Ident)].(*types.Var)
	}
	if v == nil || !gotypes.IsError(v.Type()) {
		return false
	}
	return m.guardedNil(v, sc.body, ret) || m.definedNil(v, sc, ret)
}

// definedNil reports whether every definition of v reaching ret is nil:
// the literal nil, or the zero value of a named result or of var v error.
func (m *Result) definedNil(v *types.Var, sc retScope, ret *ast.ReturnStmt) bool {
	reaching := m.defs().Reaching(v, ret.Pos())
	if len(reaching) == 0 {
		return isResultOf(m.info, v, sc.typ) // never assigned: its zero value
	}
	for _, a := range reaching {
		switch {
		case a.RHS != nil && a.Index < 0 && gotypes.IsNilExpr(m.info, a.RHS):
		case a.RHS == nil && m.declaredZero(v, sc.body, a.Pos):
		default:
			return false
		}
	}
	return true
}

// declaredZero reports whether the definition at at is the definition of v by a var
// declaration without a value (var err error).
func (m *Result) declaredZero(v *types.Var, body *ast.BlockStmt, at token.Pos) bool {
	zero := false
	ast.Inspect(body, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return !zero
		}
		for _, name := range vs.Names {
			if m.info.Defs[name] == v && len(vs.Values) == 0 && vs.End() == at {
				zero = true
			}
		}
		return false
	})
	return zero
}

// isResultOf reports whether v is a named result of typ.
func isResultOf(info *types.Info, v *types.Var, typ *ast.FuncType) bool {
	for _, f := range typ.Results.List {
		for _, n := range f.Names {
			if info.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// guardedNil reports whether a test of v against nil decides that v is
// nil at ret: ret in the body of `if v == nil`, in the else of
// `if v != nil`, or after an `if v != nil` whose body leaves the list, with
// no definition of v between that if and ret.
func (m *Result) guardedNil(v *types.Var, body *ast.BlockStmt, ret *ast.ReturnStmt) bool {
	stack := enclosing(body, ret)
	return stack != nil && m.guardedOnStack(v, stack, ret)
}

// enclosing returns the nodes of body that hold ret, outermost first (body
// itself included), or nil when ret is not in body outside function
// literals.
func enclosing(body *ast.BlockStmt, ret *ast.ReturnStmt) []ast.Node {
	var stack, found []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if n == ast.Node(ret) {
			found = slices.Clone(stack)
			return false
		}
		if n.Pos() > ret.Pos() || n.End() < ret.End() {
			return false // does not hold ret
		}
		stack = append(stack, n)
		return true
	})
	return found
}

// guardedOnStack is guardedNil over the nodes enclosing ret, outermost
// first.
func (m *Result) guardedOnStack(v *types.Var, stack []ast.Node, ret *ast.ReturnStmt) bool {
	for i, n := range stack {
		var inner ast.Node = ret
		if i+1 < len(stack) {
			inner = stack[i+1]
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			op, ok := m.nilTestOf(n.Cond, v)
			if ok && ((op == token.EQL && inner == ast.Node(n.Body)) || (op == token.NEQ && n.Else != nil && inner == n.Else)) && !m.definedBetween(v, n.Cond.End(), ret.Pos()) {
				return true
			}
		case *ast.BlockStmt:
			if m.leftBefore(v, n.List, inner, ret) {
				return true
			}
		case *ast.CaseClause:
			if m.leftBefore(v, n.Body, inner, ret) {
				return true
			}
		}
	}
	return false
}

// leftBefore reports whether a statement of list before inner is
// `if v != nil { ...leaves }` with no definition of v from it to ret.
func (m *Result) leftBefore(v *types.Var, list []ast.Stmt, inner ast.Node, ret *ast.ReturnStmt) bool {
	for _, s := range list {
		if s.Pos() >= inner.Pos() {
			return false
		}
		ifs, ok := s.(*ast.IfStmt)
		if !ok || ifs.Else != nil || !leavesBlock(ifs.Body) {
			continue
		}
		if op, ok := m.nilTestOf(ifs.Cond, v); ok && op == token.NEQ && !m.definedBetween(v, ifs.End(), ret.Pos()) {
			return true
		}
	}
	return false
}

// nilTestOf returns the operator of a condition v == nil or v != nil.
func (m *Result) nilTestOf(cond ast.Expr, v *types.Var) (token.Token, bool) {
	bin, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) {
		return 0, false
	}
	x, y := bin.X, bin.Y
	if gotypes.IsNilExpr(m.info, x) {
		x, y = y, x
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || m.info.Uses[id] != v || !gotypes.IsNilExpr(m.info, y) {
		return 0, false
	}
	return bin.Op, true
}

// definedBetween reports whether some definition of v takes effect in
// [from, to).
func (m *Result) definedBetween(v *types.Var, from, to token.Pos) bool {
	for _, a := range m.defs().Defs(v) {
		if a.Pos > from && a.Pos <= to {
			return true
		}
	}
	return false
}
