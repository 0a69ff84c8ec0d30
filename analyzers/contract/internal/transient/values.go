package transient

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
)

// This file follows local variables that record a decision as a constant:
// the action variable of a handler that classifies first and acks later.
//
//	act := ack
//	if d, ok := RetryDelay(err); ok {
//		act, delay = retry, d
//	}
//	switch act {
//	case retry: // reached only where RetryDelay succeeded
//	}
//
// When a variable is assigned a constant, the state of the error facts at
// that point (a snapshot) is remembered for that value; a join keeps, for
// each value, what holds on every path where the variable can hold it (a
// path that assigned another constant cannot, and says nothing). A test
// v == C, a case C of switch v, or if v for a bool, brings back the
// snapshot of C: only its classified transient errors and known-zero
// delays are used. Only variables declared in the body, never assigned in a
// function literal and never addressed, are followed.

// assignConsts records, after lhs = rhs was applied to st, the constants
// assigned to followed variables and the delays copied into variables.
func (p *pathAnalysis) assignConsts(st *flowState, lhs, rhs []ast.Expr) {
	for i, l := range lhs {
		v := p.varOf(l)
		if v == nil {
			continue
		}
		if k := p.constKey(rhs[i]); k != "" && p.followed(v) {
			p.setConst(st, v, k)
		}
	}
	for i, l := range lhs {
		w := p.varOf(l)
		if w == nil || !gotypes.IsDuration(w.Type()) {
			continue
		}
		if x := p.varOf(rhs[i]); x != nil && x != w && gotypes.IsDuration(x.Type()) && !p.assigned(lhs, x) {
			st.copyDelay(w, x)
		}
	}
}

// assigned reports whether x is among the variables lhs assigns.
func (p *pathAnalysis) assigned(lhs []ast.Expr, x *types.Var) bool {
	for _, l := range lhs {
		if p.varOf(l) == x {
			return true
		}
	}
	return false
}

// valueTest returns the followed variable and constant key of v == C or
// C == v.
func (p *pathAnalysis) valueTest(x, y ast.Expr) (*types.Var, string) {
	for _, pair := range [][2]ast.Expr{{x, y}, {y, x}} {
		if v := p.varOf(pair[0]); v != nil && p.followed(v) {
			if k := p.constKey(pair[1]); k != "" {
				return v, k
			}
		}
	}
	return nil, ""
}

// constKey returns a key for the value of a constant expression of a
// boolean, integer or string type, or "".
func (p *pathAnalysis) constKey(e ast.Expr) string {
	tv, ok := p.m.info.Types[e]
	if !ok || tv.Value == nil {
		return ""
	}
	switch tv.Value.Kind() {
	case constant.Bool, constant.Int, constant.String:
		return tv.Value.Kind().String() + ":" + tv.Value.ExactString()
	}
	return ""
}

// followed reports whether v is a variable whose constant values are
// followed: a local of a boolean, integer or string type, declared in the
// body, never assigned in a function literal nor addressed.
func (p *pathAnalysis) followed(v *types.Var) bool {
	if v == nil || v.IsField() || p.body == nil || v.Pos() < p.body.Pos() || v.Pos() >= p.body.End() {
		return false
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsBoolean|types.IsInteger|types.IsString) == 0 || gotypes.IsDuration(v.Type()) {
		return false // delays are followed by the zero facts
	}
	if p.unfollowed == nil {
		p.unfollowed = p.escaping()
	}
	return !p.unfollowed[v]
}

// escaping returns the body's variables that are addressed (&v, a pointer
// method called on v) or assigned inside a function literal.
func (p *pathAnalysis) escaping() map[*types.Var]bool {
	info := p.m.info
	out := make(map[*types.Var]bool)
	var inLit func(n ast.Node) bool
	inLit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := p.varOf(l); v != nil {
					out[v] = true
				}
			}
		case *ast.IncDecStmt:
			if v := p.varOf(n.X); v != nil {
				out[v] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := p.varOf(e); v != nil {
					out[v] = true
				}
			}
		}
		return true
	}
	ast.Inspect(p.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n.Body, inLit)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := p.varOf(n.X); v != nil {
					out[v] = true
				}
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[n]; ok && sel.Kind() == types.MethodVal {
				if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
						if v := p.varOf(n.X); v != nil {
							out[v] = true
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// assignZero records var v T: v holds T's zero value.
func (p *pathAnalysis) assignZero(st *flowState, v *types.Var) {
	if v == nil || !p.followed(v) {
		return
	}
	b, _ := v.Type().Underlying().(*types.Basic)
	var zero constant.Value
	switch {
	case b.Info()&types.IsBoolean != 0:
		zero = constant.MakeBool(false)
	case b.Info()&types.IsInteger != 0:
		zero = constant.MakeInt64(0)
	case b.Info()&types.IsString != 0:
		zero = constant.MakeString("")
	default:
		return
	}
	p.setConst(st, v, zero.Kind().String()+":"+zero.ExactString())
}

// setConst records that v holds the constant of key k, with the facts of
// st as its snapshot.
func (p *pathAnalysis) setConst(st *flowState, v *types.Var, k string) {
	f := &valFacts{possible: map[string]bool{k: true}, when: make(map[string]*flowState)}
	if snap := st.snapshot(); snap != nil {
		f.when[k] = snap
	}
	st.vals[v] = f
}
