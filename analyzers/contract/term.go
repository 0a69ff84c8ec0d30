package contract

import (
	"go/ast"
	"go/token"
	"go/types"
	"golang.org/x/tools/go/analysis"
	"slices"
	"sort"
)

// termState is what the model knows about may-Term helpers in the package.
type termState struct {
	params map[*types.Func][]int        // message parameters a function may Term
	sites  map[*types.Func]token.Pos    // where it first does
	lits   map[*ast.FuncLit]*litTermSet // memo: what a function literal Terms
}

// litTermSet is what a function literal may Term: some of its parameters,
// or messages it captures.
type litTermSet struct {
	params   []int
	captured ast.Expr // a captured message it Terms, or nil
	site     token.Pos
}

// TermCall describes a call that terminates a message.
type TermCall struct {
	Call *ast.CallExpr
	// Msg is the message expression terminated: the receiver of Term, the
	// argument passed to a may-Term helper's message parameter, or the
	// message a function literal captures and Terms.
	Msg ast.Expr
	// Msgs are the message variables Msg derives from.
	Msgs []*types.Var
	// Name is Term, TermWithReason, or the helper as written; empty for a
	// function literal called on the spot.
	Name string
	// Helper is set when the Term happens inside a called function or
	// function literal.
	Helper bool
	// Inner is the Term inside the helper (or the call through which the
	// helper Terms); token.NoPos for a direct Term or when unknown.
	Inner token.Pos
	// Writes is set when the helper also writes a DLQ on some path: it is
	// judged inside, and at the call it is a Term only.
	Writes bool
}

// asTerm recognizes a Term: msg.Term(), msg.TermWithReason(reason), a call
// of a function (any package) that may Term its message parameter with the
// message as argument, or a call of a function literal (directly or
// through a local variable) that Terms a message parameter or a message it
// captures.
func (m *Model) asTerm(call *ast.CallExpr) (TermCall, bool) {
	if m.info == nil || call == nil {
		return TermCall{}, false
	}
	if ack, ok := m.AsAckCall(call); ok {
		if !ack.IsTerm() {
			return TermCall{}, false
		}
		return m.termCall(call, ack.Recv, ack.Method, false, token.NoPos, false), true
	}
	if fn := StaticCallee(m.info, call); fn != nil {
		if _, isIface := recvIsInterface(fn); isIface {
			return TermCall{}, false
		}
		for _, p := range m.mayTermParams(fn) {
			if p < len(call.Args) {
				return m.termCall(call, call.Args[p], calleeName(call.Fun), true, m.mayTermSite(fn), m.isDLQWriter(fn)), true
			}
		}
		return TermCall{}, false
	}
	if lit := m.funcLitOf(call.Fun); lit != nil {
		lt := m.funcLitTerms(lit)
		for _, p := range lt.params {
			if p < len(call.Args) {
				return m.termCall(call, call.Args[p], calleeName(call.Fun), true, lt.site, m.funcLitWritesDLQ(lit)), true
			}
		}
		if lt.captured != nil {
			return m.termCall(call, lt.captured, calleeName(call.Fun), true, lt.site, m.funcLitWritesDLQ(lit)), true
		}
	}
	return TermCall{}, false
}

func (m *Model) termCall(call *ast.CallExpr, msg ast.Expr, name string, helper bool, inner token.Pos, writes bool) TermCall {
	return TermCall{
		Call: call, Msg: msg, Msgs: m.messageDeps(msg), Name: name,
		Helper: helper, Inner: inner, Writes: writes,
	}
}

// mayTermParams returns the indexes of fn's message parameters that fn (any
// package) may Term on some path, directly or through other helpers.
func (m *Model) mayTermParams(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.term.params[fn]
	}
	if fn.Pkg() == nil {
		return nil
	}
	if f := m.imported.mayTerm[fn]; f != nil {
		return f.Params
	}
	return nil
}

// mayTermSite returns where the may-Term helper fn first Terms its message
// (or calls the helper that does), or fn's own position when the exact
// place is not known in this run.
func (m *Model) mayTermSite(fn *types.Func) token.Pos {
	if fn == nil {
		return token.NoPos
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pkg {
		return m.term.sites[fn]
	}
	f := m.imported.mayTerm[fn]
	if fn.Pkg() == nil || f == nil {
		return token.NoPos
	}
	tf := m.fset.File(fn.Pos())
	if tf == nil {
		return fn.Pos()
	}
	line := tf.Line(fn.Pos()) + f.TermLine
	if f.TermLine < 0 || line > tf.LineCount() || f.TermCol < 1 {
		return fn.Pos()
	}
	start := tf.LineStart(line)
	end := tf.Base() + tf.Size()
	if line < tf.LineCount() {
		end = int(tf.LineStart(line + 1))
	}
	if pos := int(start) + f.TermCol - 1; pos < end {
		return token.Pos(pos)
	}
	return start
}

// funcLitTerms returns what a function literal may Term.
func (m *Model) funcLitTerms(lit *ast.FuncLit) *litTermSet {
	if lt, ok := m.term.lits[lit]; ok {
		return lt
	}
	if m.frozen {
		return &litTermSet{} // unreachable: freeze filled the memo for every literal
	}
	if m.term.lits == nil {
		m.term.lits = make(map[*ast.FuncLit]*litTermSet)
	}
	lt := &litTermSet{}
	m.term.lits[lit] = lt // cycle guard
	params := paramVars(m.info, lit.Type)
	InspectCalls(lit.Body, func(call *ast.CallExpr) bool {
		t, ok := m.asTerm(call)
		if !ok {
			return true
		}
		hit := false
		for i, p := range params {
			if p != nil && slices.Contains(t.Msgs, p) && !slices.Contains(lt.params, i) {
				lt.params = append(lt.params, i)
				hit = true
			}
		}
		if !hit && lt.captured == nil {
			for _, v := range t.Msgs {
				if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
					lt.captured = t.Msg
					hit = true
					break
				}
			}
		}
		if hit && lt.site == token.NoPos {
			lt.site = t.Call.Pos()
		}
		return true
	})
	slices.Sort(lt.params)
	return lt
}

// paramVars returns the variables of a function type's parameters, in
// order (nil for blank or unnamed ones).
func paramVars(info *types.Info, ft *ast.FuncType) []*types.Var {
	var vs []*types.Var
	if ft == nil || ft.Params == nil {
		return nil
	}
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			vs = append(vs, nil)
			continue
		}
		for _, n := range f.Names {
			v, _ := info.Defs[n].(*types.Var)
			vs = append(vs, v)
		}
	}
	return vs
}

// inferMayTerm finds, to a fixpoint, the package's functions that Term a
// message parameter on some path: directly, through a may-Term helper of
// any package, or in a function literal they call.
func (m *Model) inferMayTerm(decls []*ast.FuncDecl) {
	m.term.params = make(map[*types.Func][]int)
	m.term.sites = make(map[*types.Func]token.Pos)
	for changed := true; changed; {
		changed = false
		m.term.lits = nil
		for _, d := range decls {
			fn, _ := m.info.Defs[d.Name].(*types.Func)
			if fn == nil || d.Body == nil {
				continue
			}
			params := paramVars(m.info, d.Type)
			InspectCalls(d.Body, func(call *ast.CallExpr) bool {
				t, ok := m.asTerm(call)
				if !ok {
					return true
				}
				for i, p := range params {
					if p == nil || !slices.Contains(t.Msgs, p) || slices.Contains(m.term.params[fn], i) {
						continue
					}
					m.term.params[fn] = append(m.term.params[fn], i)
					slices.Sort(m.term.params[fn])
					if m.term.sites[fn] == token.NoPos {
						m.term.sites[fn] = t.Call.Pos() // the Term, or the helper call that Terms
					}
					changed = true
				}
				return true
			})
		}
	}
	m.term.lits = nil
}

func (m *Model) exportTermFacts(pass *analysis.Pass) {
	for _, fn := range sortedKeys(m.term.params) {
		f := &MayTermFact{Params: slices.Clone(m.term.params[fn])}
		if site := m.term.sites[fn]; site.IsValid() && fn.Pos().IsValid() {
			at, decl := m.fset.Position(site), m.fset.Position(fn.Pos())
			if at.Filename == decl.Filename && at.Line >= decl.Line {
				f.TermLine, f.TermCol = at.Line-decl.Line, at.Column
			}
		}
		pass.ExportObjectFact(fn, f)
	}
}

// isMessageVar reports whether e names a variable holding a message.
func (m *Model) isMessageVar(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := m.info.Uses[id].(*types.Var)
	return ok && m.IsMessage(v.Type())
}

// holdsMessages reports whether t is a message or a pointer, slice, array,
// map or channel of messages.
func (m *Model) holdsMessages(t types.Type, depth int) bool {
	if !isValid(t) || depth > 2 {
		return false
	}
	if m.IsMessage(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Slice:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Array:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Map:
		return m.holdsMessages(u.Elem(), depth+1)
	case *types.Chan:
		return m.holdsMessages(u.Elem(), depth+1)
	}
	return false
}

// addVar adds v to the position-sorted set vs.
func addVar(vs []*types.Var, v *types.Var) []*types.Var {
	if slices.Contains(vs, v) {
		return vs
	}
	i := sort.Search(len(vs), func(i int) bool { return vs[i].Pos() > v.Pos() })
	return slices.Insert(vs, i, v)
}
