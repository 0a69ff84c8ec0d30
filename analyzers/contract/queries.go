package contract

import (
	"go/ast"

	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/paths"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"golang.org/x/tools/go/cfg"
)

// The DLQ and Term queries below read the Model only: the caches their
// implementations fill while the contract analyzer runs are complete once
// freeze returns.

// freeze ends the inferences: the calls of each body, which only their
// fixpoints needed, are dropped, and the Model is never written again: the
// checks that share it run in parallel.
func (m *Model) freeze() {
	m.frozen = true
	m.calls = nil
}

// returnsOf returns the return statements of a function body, not those
// of the function literals inside it.
func (m *Model) returnsOf(body *ast.BlockStmt) []*ast.ReturnStmt {
	if rets, ok := m.syn.Returns[body]; ok {
		return rets
	}
	return goast.Returns(body)
}

// IsTestFunc reports whether d is a test function, out of scope of the
// model and of every check.
func (m *Model) IsTestFunc(d *ast.FuncDecl) bool { return m.testFuncs[d] }

// defs returns the package's flow index, built on first use while the
// model runs: most packages of a program never need it. Once the model is
// frozen it is only read; a package that did not build it then gets one
// of its own for the query, not kept.
func (m *Model) defs() *defs.Index {
	if m.flow != nil {
		return m.flow
	}
	nodes := m.syn.Flow
	if m.frozen {
		nodes = syntax.NewIndex(m.files, m.testFuncs).Flow // dropped when the model was frozen
	}
	idx := defs.Build(m.info, nodes)
	if !m.frozen {
		m.flow = idx
	}
	return idx
}

// AckCall describes a call of an acknowledgement method on a message.
type AckCall = messages.AckCall

// callsOf returns the calls of body in InspectCalls order. While the model
// runs (its fixpoints ask for the same bodies round after round) they come
// from the syntax index, grouped by body once; afterwards from a walk.
func (m *Model) callsOf(body *ast.BlockStmt) []*ast.CallExpr {
	if m.frozen {
		var calls []*ast.CallExpr
		goast.InspectCalls(body, func(call *ast.CallExpr) bool {
			calls = append(calls, call)
			return true
		})
		return calls
	}
	if calls, ok := m.calls[body]; ok {
		return calls
	}
	if m.calls == nil {
		m.calls = m.syn.CallsByBody()
		if calls, ok := m.calls[body]; ok {
			return calls
		}
	}
	m.calls[body] = nil // a body of no call (or not the package's)
	return nil
}

// DLQWrite describes a call that writes a dead-letter queue.
type DLQWrite = dlq.DLQWrite

// SettleCall describes a call that settles a message: a Term, an Ack.
type SettleCall = settle.SettleCall

// DeferredAck is a deferred Ack of a function body (settle.DeferredAck).
type DeferredAck = settle.DeferredAck

// Handler describes a function body that is a handler.
type Handler = handlers.Handler

// Decode describes a call that decodes a message's payload.
type Decode = handlers.Decode

// The stages' Results, read-only: the checks query them.

// Messages returns what the model knows of messages, ack calls and
// publish calls.
func (m *Model) Messages() *messages.Table { return m.msgs }

// Producers returns the retryable producers and carriers.
func (m *Model) Producers() *producers.Result { return m.prod }

// DLQ returns the DLQ writes and writers.
func (m *Model) DLQ() *dlq.Result { return m.dlq }

// Settle returns the settlements and helper effects.
func (m *Model) Settle() *settle.Result { return m.set }

// Handlers returns the handlers, middleware and payload decodes.
func (m *Model) Handlers() *handlers.Result { return m.hd }

// Paths returns the solved transient paths and the bodies by what they
// hold.
func (m *Model) Paths() *paths.Result { return m.paths }

// carrier at all (vocabulary.go): when not, no error is retryable there.
func (m *Model) RetryInSight() bool { return m.gate.MayRetry }

// Control-flow graphs come from the cfgs pass, which builds one per
// function declaration and literal, once, with what it knows of functions
// that never return. Neither the model nor the checks build a CFG of their
// own.

// CFG returns the control-flow graph of a function declaration's or
// literal's body, or nil for a body of another package.
func (m *Model) CFG(body *ast.BlockStmt) *cfg.CFG { return m.graphs.Of(body) }
