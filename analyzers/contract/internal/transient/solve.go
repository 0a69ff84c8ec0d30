package transient

import (
	"go/ast"

	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
)

// The transient-path analysis of one body: its indexes of the body and the
// fixpoint over the body's CFG (the dataflow package's solver).

// newPathAnalysis solves the transient paths of body: every solve of the
// model, for the checks and for its own inferences, goes through here.
func (m *Result) newPathAnalysis(body *ast.BlockStmt) *pathAnalysis {
	if m.onSolve != nil {
		m.onSolve(body)
	}
	p := &pathAnalysis{
		m:          m,
		body:       body,
		tagOf:      make(map[ast.Expr]ast.Expr),
		typeTests:  make(map[*cfg.Block]typeTest),
		rangeVars:  make(map[ast.Expr]bool),
		calls:      make(map[*ast.CallExpr]nodeRef),
		returns:    make(map[*ast.ReturnStmt]nodeRef),
		tests:      make(map[ast.Expr]*errTest),
		negated:    make(map[*errTest]*errTest),
		retryable:  make(map[ast.Expr]*ast.CallExpr),
		isRetrying: make(map[ast.Expr]bool),
	}
	p.g = m.graphs.Of(body)
	if p.g == nil {
		p.g = new(cfg.CFG) // no graph (type errors): no facts
	}
	p.index(body)
	p.solve()
	return p
}

// index records the switch cases, type-switch tests, range variables and
// calls of the body.
func (p *pathAnalysis) index(body *ast.BlockStmt) {
	typeSwitch := make(map[*ast.CaseClause]*ast.TypeSwitchStmt)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SwitchStmt:
			if n.Tag != nil {
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						p.tagOf[e] = n.Tag
					}
				}
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				typeSwitch[c.(*ast.CaseClause)] = n
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					p.rangeVars[e] = true
				}
			}
		}
		return true
	})
	for _, b := range p.g.Blocks {
		for i, n := range b.Nodes {
			ref := nodeRef{int(b.Index), i}
			p.indexCalls(n, ref)
			if ret, ok := n.(*ast.ReturnStmt); ok {
				p.returns[ret] = ref
			}
		}
		if cc := typeCaseTest(b); cc != nil && typeSwitch[cc] != nil {
			if x := typeSwitchOperand(typeSwitch[cc]); x != nil {
				p.typeTests[b] = typeTest{err: x, cc: cc, last: typeCaseTest(b.Succs[1]) != cc}
			}
		}
	}
}

// typeCaseTest returns the case clause b tests when b is one of the tests
// of a type switch's case clause: two successors, the clause's body and
// the block after the test (the next test of the same clause, or what
// follows the clause). It reads the graph's shape, not the order in which
// go/cfg created the blocks.
func typeCaseTest(b *cfg.Block) *ast.CaseClause {
	if len(b.Succs) != 2 {
		return nil
	}
	body, next := b.Succs[0], b.Succs[1]
	cc, ok := next.Stmt.(*ast.CaseClause)
	if !ok || next.Kind != cfg.KindSwitchNextCase || body.Kind != cfg.KindSwitchCaseBody || body.Stmt != cc {
		return nil
	}
	return cc
}

// indexCalls records the calls a node evaluates where it stands: not those
// of nested function literals, nor the deferred or spawned call itself.
func (p *pathAnalysis) indexCalls(n ast.Node, ref nodeRef) {
	var skip *ast.CallExpr
	switch n := n.(type) {
	case *ast.DeferStmt:
		skip = n.Call
	case *ast.GoStmt:
		skip = n.Call
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n != skip {
				p.calls[n] = ref
			}
		}
		return true
	})
}

// typeSwitchOperand returns x in switch x.(type) or switch v := x.(type).
func typeSwitchOperand(sw *ast.TypeSwitchStmt) ast.Expr {
	var e ast.Expr
	switch a := sw.Assign.(type) {
	case *ast.ExprStmt:
		e = a.X
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			e = a.Rhs[0]
		}
	}
	if ta, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok {
		return ta.X
	}
	return nil
}

// solve runs the forward fixpoint from the entry block.
func (p *pathAnalysis) solve() {
	r := dataflow.Forward(p.g, dataflow.Problem[*flowState]{
		Lattice: pathLattice{},
		Entry:   newFlowState(),
		Block: func(b *cfg.Block, in *flowState) *flowState {
			out := in.clone()
			for _, n := range b.Nodes {
				p.transfer(out, n)
			}
			out.normalize()
			return out
		},
		Edge: func(b *cfg.Block, i int, out *flowState) (*flowState, bool) {
			st := out.clone()
			p.edge(st, b, i)
			st.normalize()
			return st, !st.infeasible
		},
		MaxVisits: maxVisits,
	})
	p.entry, p.converged = r.In, r.Converged
}

// stateBefore returns the state just before the node at ref, or nil.
func (p *pathAnalysis) stateBefore(ref nodeRef) *flowState {
	if !p.converged || p.entry[ref.block] == nil {
		return nil
	}
	st := p.entry[ref.block].clone()
	for _, n := range p.g.Blocks[ref.block].Nodes[:ref.node] {
		p.transfer(st, n)
	}
	return st
}
