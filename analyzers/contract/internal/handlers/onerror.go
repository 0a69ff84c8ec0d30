package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// What a handler's caller does with its error (CONTRACT.md version 3,
// settletwice: "a handler's non-nil error return to a bus that Naks or
// Terms on error"). A handler that Acks its message itself and then
// returns an error relies on the caller to retry or terminate the failed
// work; the broker ignores that second settlement. Only a caller that
// settles the error makes the error return a settlement: a bus that logs
// the error and moves on (the ack wait redelivers, or nothing does) turns
// it into nothing, and returning the error there after an Ack is harmless.
//
// The error side is read where the Ack on nil is found (acksOnNil): the
// body of `if err != nil`, the else of `if err == nil`, the statements
// after an `if err == nil { ...; return }`, and the other clauses of a
// `switch { case err == nil: }`. Its settlement is the first Nak,
// NakWithDelay, Term or TermWithReason there (outside function literals),
// or a helper that may make one of those of a message (its effects, any
// condition: a bus that classifies the error and Naks or Terms settles it
// either way). A settlement of a message that nothing redelivers (a core
// NATS subscription's, an ordered consumer's) is none: the caller does
// nothing the broker acts on. Nothing found: the caller does nothing the
// broker sees.

// errorSettlement returns the first settlement other than an Ack (and
// InProgress) that the statements of an error side make, or "".
func (m *Result) errorSettlement(nodes ...ast.Node) profile.Settlement {
	var found profile.Settlement
	for _, n := range nodes {
		if n == nil || found != "" {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				for _, s := range m.set.Settlements(n) {
					switch s.Settlement {
					case profile.RetryNow, profile.RetryLater, profile.Terminate:
						if vs := m.msgs.Deps(s.Msg); len(vs) > 0 && !m.msgs.RedeliveredVars(vs) {
							continue // a Nak of a message nothing redelivers asks for nothing
						}
						found = s.Settlement
						return false
					}
				}
			}
			return found == ""
		})
	}
	return found
}

// noteOnError records the error side's settlement of the caller whose Ack
// on nil is ack.
func (m *Result) noteOnError(ack token.Pos, nodes ...ast.Node) {
	if !ack.IsValid() {
		return
	}
	if s := m.errorSettlement(nodes...); s != "" {
		if m.onErr == nil {
			m.onErr = make(map[token.Pos]profile.Settlement)
		}
		m.onErr[ack] = s
	}
}

// onErrorAt returns what the caller whose Ack on nil is ack (a position in
// the package: handler parameters and fields the package declares) does
// with the handler's error: a Nak, NakWithDelay or Term settlement, or ""
// when it settles nothing there.
func (m *Result) onErrorAt(ack token.Pos) profile.Settlement { return m.onErr[ack] }

// ErrorReturn reports whether ret, a return of the function body body,
// returns an error that is not nil, as far as can be told without
// guessing: a new error (fmt.Errorf, errors.New, a composite literal of an
// error type or its address), or a variable that the innermost test of it
// against nil holding ret says is not nil (`if err != nil { return err }`,
// no definition of err in between). Anything else (the result of another
// call, errors.Join, a variable of unknown value) is not known to be an
// error: doubtful cases stay quiet.
func (m *Result) ErrorReturn(body *ast.BlockStmt, ret *ast.ReturnStmt) bool {
	if len(ret.Results) == 0 {
		return false
	}
	last := ast.Unparen(ret.Results[len(ret.Results)-1])
	if !gotypes.IsError(m.info.TypeOf(last)) {
		return false
	}
	if u, ok := last.(*ast.UnaryExpr); ok && u.Op == token.AND {
		last = ast.Unparen(u.X)
	}
	switch e := last.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		fn := gotypes.StaticCallee(m.info, e)
		return fn != nil && fn.Pkg() != nil && newError(fn.Pkg().Path()+"."+fn.Name())
	case *ast.Ident:
		v, _ := m.info.Uses[e].(*types.Var)
		return v != nil && m.guardedNonNil(v, enclosing(body, ret), ret)
	}
	return false
}

// newError reports whether the function named (import path and name)
// always returns a new, non-nil error.
func newError(name string) bool { return name == "fmt.Errorf" || name == "errors.New" }

// guardedNonNil reports whether the innermost if statement of the stack
// that tests v against nil holds ret on its non-nil side, with no
// definition of v between its condition and ret.
func (m *Result) guardedNonNil(v *types.Var, stack []ast.Node, ret *ast.ReturnStmt) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		ifs, ok := stack[i].(*ast.IfStmt)
		if !ok {
			continue
		}
		op, ok := m.nilTestOf(ifs.Cond, v)
		if !ok {
			continue
		}
		var inner ast.Node = ret
		if i+1 < len(stack) {
			inner = stack[i+1]
		}
		nonNil := (op == token.NEQ && inner == ast.Node(ifs.Body)) || (op == token.EQL && ifs.Else != nil && inner == ifs.Else)
		return nonNil && !m.definedBetween(v, ifs.Cond.End(), ret.Pos())
	}
	return false
}
