package dlq

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/internal/printf"
)

// This file decides whether a publish call's subject names a dead-letter
// queue: constant parts, concatenations, fmt.Sprintf formats, and the
// subject set on a *nats.Msg value in the same function.

// publishesToDLQ reports whether a publish call's subject names a DLQ.
func (m *Result) publishesToDLQ(fn *types.Func, call *ast.CallExpr) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return false
	}
	params := sig.Params()
	for i := 0; i < params.Len() && i < len(call.Args); i++ {
		t := params.At(i).Type()
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return m.dlqSubject(call.Args[i], 0)
		}
		if m.msgs.IsPublishMsg(t) {
			return m.msgSubjectIsDLQ(call.Args[i], 0)
		}
	}
	return false
}

// dlqSubject reports whether a subject expression names a DLQ: one of its
// constant parts (a constant, an operand of +, a fmt.Sprintf format or
// constant argument) matches Config.DLQSubject, or it is a variable, field
// or call whose name matches Config.DLQName. Local variables are traced to
// their definitions.
func (m *Result) dlqSubject(e ast.Expr, depth int) bool {
	if e == nil || depth > defs.MaxDepth {
		return false
	}
	e = ast.Unparen(e)
	if s, ok := printf.ConstString(m.info, e); ok {
		return m.cfg.DLQSubject.MatchString(s)
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (m.dlqSubject(e.X, depth+1) || m.dlqSubject(e.Y, depth+1))
	case *ast.CallExpr:
		fn := gotypes.StaticCallee(m.info, e)
		if gotypes.IsPkgFunc(fn, "fmt", "Sprintf") || gotypes.IsPkgFunc(fn, "strings", "Join") || gotypes.IsPkgFunc(fn, "path", "Join") {
			for _, a := range e.Args {
				if m.dlqSubject(a, depth+1) {
					return true
				}
			}
			return false
		}
		name := goast.CalleeText(e.Fun)
		if i := strings.LastIndex(name, "."); i >= 0 {
			name = name[i+1:]
		}
		return name != "" && m.isDLQName(name)
	case *ast.SelectorExpr:
		return m.isDLQName(e.Sel.Name)
	case *ast.Ident:
		if m.isDLQName(e.Name) {
			return true
		}
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		for _, a := range m.defs().Reaching(v, e.Pos()) {
			if a.Index < 0 && a.RHS != nil && m.dlqSubject(a.RHS, depth+1) {
				return true
			}
		}
	case *ast.CompositeLit: // []string{"orders", "DLQ"} for strings.Join
		for _, elt := range e.Elts {
			if m.dlqSubject(elt, depth+1) {
				return true
			}
		}
	}
	return false
}

// msgSubjectIsDLQ reports whether the subject set on a *nats.Msg value, in
// the function that builds it, names a DLQ: nats.NewMsg(subject),
// &nats.Msg{Subject: subject} or msg.Subject = subject.
func (m *Result) msgSubjectIsDLQ(e ast.Expr, depth int) bool {
	if e == nil || depth > defs.MaxDepth {
		return false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Subject" && m.dlqSubject(kv.Value, depth+1) {
					return true
				}
			}
		}
	case *ast.CallExpr:
		if m.msgs.IsPublishMsgNew(gotypes.StaticCallee(m.info, e)) && len(e.Args) == 1 {
			return m.dlqSubject(e.Args[0], depth+1)
		}
	case *ast.Ident:
		v, ok := m.info.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		for _, s := range m.msgs.FieldStores(v) {
			if s.Field == "Subject" && m.dlqSubject(s.RHS, depth+1) {
				return true
			}
		}
		for _, a := range m.defs().Reaching(v, e.Pos()) {
			if a.Index < 0 && a.RHS != nil && m.msgSubjectIsDLQ(a.RHS, depth+1) {
				return true
			}
		}
	}
	return false
}
