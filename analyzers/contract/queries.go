package contract

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The DLQ and Term queries below fill caches of the Model as they go, and
// the checks that share a Model run in parallel: each exported query takes
// dlqMu and calls the unexported implementation, which never locks.

// AsDLQWrite recognizes a DLQ write (see CONTRACT.md) and describes it.
func (m *Model) AsDLQWrite(call *ast.CallExpr) (DLQWrite, bool) {
	m.dlqMu.Lock()
	defer m.dlqMu.Unlock()
	return m.asDLQWrite(call)
}

// IsDLQWriter reports whether fn (any package) makes a DLQ write on some path.
func (m *Model) IsDLQWriter(fn *types.Func) bool {
	m.dlqMu.Lock()
	defer m.dlqMu.Unlock()
	return m.isDLQWriter(fn)
}

// IsDLQWrite reports whether call is a DLQ write.
func (m *Model) IsDLQWrite(call *ast.CallExpr) bool {
	m.dlqMu.Lock()
	defer m.dlqMu.Unlock()
	return m.isDLQWrite(call)
}

// AsTerm recognizes a Term: Term, TermWithReason, a call to a may-Term helper, or a Term-ing closure.
func (m *Model) AsTerm(call *ast.CallExpr) (TermCall, bool) {
	m.dlqMu.Lock()
	defer m.dlqMu.Unlock()
	return m.asTerm(call)
}

// MessageDeps returns the message variables e derives from (the "same message" fine point).
func (m *Model) MessageDeps(e ast.Expr) []*types.Var {
	m.dlqMu.Lock()
	defer m.dlqMu.Unlock()
	return m.messageDeps(e)
}

// MayTermParams returns the message parameters fn may Term.
func (m *Model) MayTermParams(fn *types.Func) []int {
	m.dlqMu.Lock()
	defer m.dlqMu.Unlock()
	return m.mayTermParams(fn)
}

// MayTermSite returns the position of the Term inside fn, when known.
func (m *Model) MayTermSite(fn *types.Func) token.Pos {
	m.dlqMu.Lock()
	defer m.dlqMu.Unlock()
	return m.mayTermSite(fn)
}
