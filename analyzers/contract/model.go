package contract

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/cfgs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/defs"
	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/messages"
	"github.com/retrylint/retrylint/analyzers/contract/internal/paths"
	"github.com/retrylint/retrylint/analyzers/contract/internal/producers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/contract/internal/syntax"
	"github.com/retrylint/retrylint/analyzers/contract/internal/transient"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// Option configures a contract analyzer beyond its Config: what tests
// observe of its work.
type Option func(*hooks)

// hooks are what tests observe of a run: each CFG built and each body
// whose transient paths are solved.
type hooks struct {
	build, solve func(body *ast.BlockStmt)
}

// OnBuild has f called with each function body whose control-flow graph
// the model builds.
func OnBuild(f func(body *ast.BlockStmt)) Option { return func(h *hooks) { h.build = f } }

// OnSolve has f called with each function body whose transient paths the
// model solves.
func OnSolve(f func(body *ast.BlockStmt)) Option { return func(h *hooks) { h.solve = f } }

// Model is what the contract analyzer knows about one package: which of
// its types are carriers and messages, which calls produce retryable
// errors, write a DLQ or Term a message. Its methods also consult facts
// about other packages.
//
// The model is computed whole in the contract analyzer's Run, facts of
// other packages included, and is read-only afterwards: the checks share it
// and run in parallel.
type Model struct {
	cfg      *Config
	hooks    hooks
	fset     *token.FileSet
	files    []*ast.File
	pkg      *types.Package
	info     *types.Info
	flow     *defs.Index
	syn      *syntax.Index // what one walk over the files collects; trimmed when frozen
	imported importedFacts
	graphs   *cfgs.Graphs         // the CFGs of the bodies with something to judge
	noReturn map[*types.Func]bool // the package's functions that never return

	// What can be found in the package at all (syntax.Gate): the model
	// skips the inferences that cannot find anything.
	gate      syntax.Gate // what can be found in the package
	mayHandle bool        // some function could be a handler registered elsewhere

	prod   *producers.Result
	frozen bool // set when the inferences are done: callsOf walks from then on

	dlq       *dlq.Result
	set       *settle.Result         // settlements, effects, deferred Acks
	msgs      *messages.Table        // messages, ack calls, publish calls, derivations
	hd        *handlers.Result       // handler parameters, middleware, handlers, decodes
	decls     []*ast.FuncDecl        // with a body, not a test function
	testFuncs map[*ast.FuncDecl]bool // out of scope (syntax.TestFuncs)
	declByFn  map[*types.Func]*ast.FuncDecl
	calls     map[*ast.BlockStmt][]*ast.CallExpr // memo of callsOf while the model runs
	tr        *transient.Result                  // classifiers, and the solver of transient paths
	paths     *paths.Result                      // solved paths, effect conditions, bodies by what they hold
}

// Config returns the configuration the model was built with.
func (m *Model) Config() *Config { return m.cfg }

// Pkg returns the package under analysis.
func (m *Model) Pkg() *types.Package { return m.pkg }

// Info returns the package's type information.
func (m *Model) Info() *types.Info { return m.info }

// Files returns the package's syntax.
func (m *Model) Files() []*ast.File { return m.files }

// Report reports d through pass. A check's pass (checks.New) drops a
// diagnostic that a suppression directive covers or that lies in a
// generated file, and records the directive as used.
func (m *Model) Report(pass *analysis.Pass, d analysis.Diagnostic) { pass.Report(d) }

// DLQFuncs returns the functions the configuration names as DLQ writers
// (dlq-funcs).
func (m *Model) DLQFuncs() []FuncName { return m.cfg.DLQFuncs }

// DecodeFuncs returns the configured payload decoders (decode-funcs).
func (m *Model) DecodeFuncs() []FuncName { return m.cfg.DecodeFuncs }

// DelayExpr returns the source text of the delay a transient path's
// classification bound, when it is in scope at pos: "d", or
// "rd.RetryDelay()" for a carrier variable; "" otherwise.
func (m *Model) DelayExpr(t *TransientPath, pos token.Pos) string {
	if t == nil || m.pkg == nil {
		return ""
	}
	v, suffix := t.Delay, ""
	if v == nil && t.Carrier != nil {
		v, suffix = t.Carrier, "."+m.cfg.CarrierMethod+"()"
	}
	if v == nil || v.Name() == "_" || v.Name() == "" {
		return ""
	}
	scope := m.pkg.Scope().Innermost(pos)
	if scope == nil {
		return ""
	}
	if _, obj := scope.LookupParent(v.Name(), pos); obj != v {
		return ""
	}
	return v.Name() + suffix
}

// ErrorPaths is the transient-path analysis of one function body.
type ErrorPaths = transient.ErrorPaths

// PathFacts is what holds on every path that reaches a point.
type PathFacts = transient.PathFacts

// TransientPath says why a path is transient.
type TransientPath = transient.TransientPath

// ErrorBranch is the unclassified error branch of a retryable producer.
type ErrorBranch = transient.ErrorBranch

// ParamsOf returns the parameters a function type declares, in order (nil
// for an unnamed or blank one).
func (m *Model) ParamsOf(ft *ast.FuncType) []*types.Var { return messages.ParamVars(m.info, ft) }

// Offset returns pos relative to fn's declaration (line offset, column),
// as Site reads it; ok is false when pos is not in fn's file after it.
func (m *Model) Offset(fn *types.Func, pos token.Pos) (line, col int, ok bool) {
	decl, at := m.fset.Position(fn.Pos()), m.fset.Position(pos)
	if at.Filename != decl.Filename || at.Line < decl.Line {
		return 0, 0, false
	}
	return at.Line - decl.Line, at.Column, true
}

// HelperSettle is a call of a helper that settles a message it is given,
// with the condition under which it does.
type HelperSettle = paths.HelperSettle

// HelperSettlesWith reports whether a helper call settles its message
// given the error argument it receives (paths.HelperSettlesWith).
func HelperSettlesWith(info *types.Info, h HelperSettle, errVar *types.Var) bool {
	return paths.HelperSettlesWith(info, h, errVar)
}

// freeze ends the inferences: the calls of each body, which only their
// fixpoints needed, are dropped, and the Model is never written again: the
// checks that share it run in parallel.
func (m *Model) freeze() {
	m.frozen = true
	m.calls = nil
}

// Release drops what the model computed for the package, keeping its
// configuration. The meta check, which requires every check that runs
// and so runs after all of them, calls it as the package's last reader:
// the drivers (x/tools' checker, golangci-lint's runner) keep every
// action's result until the whole program is analyzed, so without it the
// models of every package stayed alive to the end, about 2% of the heap
// on nats-server, twice that in peak RSS. Nothing may read the model
// afterwards: its accessors return nil.
func (m *Model) Release() {
	*m = Model{cfg: m.cfg, frozen: true}
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

// carrier at all (syntax.Gate): when not, no error is retryable there.
func (m *Model) RetryInSight() bool { return m.gate.MayRetry }

// CFG returns the control-flow graph of a function declaration's or
// literal's body, or nil for a body of another package.
func (m *Model) CFG(body *ast.BlockStmt) *cfg.CFG { return m.graphs.Of(body) }

// importedFacts is what the facts of other packages say, read once while
// the contract analyzer's Run is in progress: the analysis API forbids
// importing facts after Run returns, and the checks query the Model later,
// in parallel.
type importedFacts struct {
	producers producers.Imported
	dlq       dlq.Imported
	effects   settle.Imported
	// The names of the functions with a dLQWriterFact or an effectsFact:
	// the model tests a call's name against them before its callee.
	classifiers map[*types.Func]transient.ClassifierKind
	noReturn    map[*types.Func]bool
	handlers    handlers.Imported
}

// ForeignHandler is a function of another package registered here with a
// bus that Acks on nil (handlers.ForeignHandler).
type ForeignHandler = handlers.ForeignHandler
