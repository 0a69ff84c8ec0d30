package dlq

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// Nil guards (CONTRACT.md version 3, "Swallowing writers and guards"): a
// writer that returns early, reporting nothing, when its receiver, its
// connection or its configured sink is nil
//
//	if c == nil || c.js == nil {
//		return nil
//	}
//
// writes on every path that matters to its callers, and on the guarded
// path drops the write altogether: such a writer is swallowing. A guard
// that returns an error tells its caller, and still counts as a path
// that does not write.

// withoutNilGuards returns d's body without its top-level nil guards that
// return no error, and whether it had one.
func (m *Result) withoutNilGuards(d *ast.FuncDecl) (*ast.BlockStmt, bool) {
	roots := make(map[types.Object]bool)
	for _, fl := range []*ast.FieldList{d.Recv, d.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				if obj := m.info.Defs[n]; obj != nil && !m.msgs.IsMessage(obj.Type()) { // if msg == nil: nothing to keep
					roots[obj] = true
				}
			}
		}
	}
	body := &ast.BlockStmt{Lbrace: d.Body.Lbrace, Rbrace: d.Body.Rbrace}
	guarded := false
	for _, st := range d.Body.List {
		if s, ok := st.(*ast.IfStmt); ok && s.Init == nil && s.Else == nil &&
			m.nilTestOf(s.Cond, roots) && m.returnsNoError(s.Body) {
			guarded = true
			continue
		}
		body.List = append(body.List, st)
	}
	return body, guarded
}

// nilTestOf reports whether cond is x == nil, or a || of such tests,
// where each x is a root (the receiver, a parameter) or a field selected
// from one (c.js, c.cfg.deadLetterSink).
func (m *Result) nilTestOf(cond ast.Expr, roots map[types.Object]bool) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LOR:
		return m.nilTestOf(b.X, roots) && m.nilTestOf(b.Y, roots)
	case token.EQL:
		if id, ok := ast.Unparen(b.Y).(*ast.Ident); !ok || id.Name != "nil" {
			return false
		}
		for e := ast.Unparen(b.X); ; {
			switch x := e.(type) {
			case *ast.SelectorExpr:
				e = ast.Unparen(x.X)
				continue
			case *ast.Ident:
				return roots[m.info.Uses[x]]
			}
			return false
		}
	}
	return false
}

// returnsNoError reports whether a guard's block is a return that reports
// nothing: a bare return, or one whose error results are nil.
func (m *Result) returnsNoError(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	ret, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	if !ok {
		return false
	}
	for _, r := range ret.Results {
		if id, ok := ast.Unparen(r).(*ast.Ident); ok && id.Name == "nil" {
			continue
		}
		if tv, ok := m.info.Types[r]; !ok || gotypes.IsError(tv.Type) {
			return false // an error, or a result the types do not tell
		}
	}
	return true
}
