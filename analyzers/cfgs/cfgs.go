// Package cfgs builds the control-flow graphs of a package's function
// bodies, each once, for the contract model and the checks to share, and
// decides which functions never return.
//
// Graphs are built on demand while the contract analyzer runs, for the
// bodies that hold something to judge (an ack call, a Term, a retryable
// error passed on, a classifier); then the set is frozen and only read.
// Building every body's graph up front, as
// golang.org/x/tools/go/analysis/passes/ctrlflow does, costs time and
// memory on every package of the program, nearly all of which hold
// nothing retrylint judges (and ctrlflow does not run on packages with
// type errors, where every check must).
package cfgs

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// NoReturnFact marks a function that never returns normally.
type NoReturnFact struct{}

func (*NoReturnFact) AFact() {}

// SeenBySilent: silence's rules account for it (contract.Silence).
func (*NoReturnFact) SeenBySilent() bool { return true }
func (*NoReturnFact) String() string     { return "no return" }

// Graphs holds the CFGs of one package's function bodies.
type Graphs struct {
	info     *types.Info
	noReturn func(*types.Func) bool
	byBody   map[*ast.BlockStmt]*cfg.CFG
	frozen   bool
	onBuild  func(body *ast.BlockStmt)
}

// Option configures a set of graphs.
type Option func(*Graphs)

// OnBuild has f called before each graph is built, with its body: tests
// count the builds.
func OnBuild(f func(body *ast.BlockStmt)) Option { return func(g *Graphs) { g.onBuild = f } }

// New returns an empty set of graphs for a package with type information
// info; noReturn tells which functions (of any package) never return.
func New(info *types.Info, noReturn func(*types.Func) bool, opts ...Option) *Graphs {
	g := &Graphs{info: info, noReturn: noReturn, byBody: make(map[*ast.BlockStmt]*cfg.CFG)}
	for _, opt := range opts {
		opt(g)
	}
	return g
}

// Of returns the CFG of a function declaration's or literal's body,
// building it the first time. Once the set is frozen it is only read: a
// body that was not built then gets a graph of its own, not kept.
func (g *Graphs) Of(body *ast.BlockStmt) *cfg.CFG {
	if g == nil || body == nil {
		return nil
	}
	if c, ok := g.byBody[body]; ok {
		return c
	}
	if g.onBuild != nil {
		g.onBuild(body)
	}
	c := cfg.New(body, g.mayReturn)
	if !g.frozen {
		g.byBody[body] = c
	}
	return c
}

// Freeze ends the building: the graphs are shared read-only from now on.
func (g *Graphs) Freeze() { g.frozen = true }

// mayReturn reports whether a call may return: not panic, not a function
// that never returns.
func (g *Graphs) mayReturn(call *ast.CallExpr) bool {
	if isPanic(g.info, call) {
		return false
	}
	fn := callee(g.info, call)
	return fn == nil || !g.noReturn(fn)
}

func isPanic(info *types.Info, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "panic"
}

// Intrinsic reports the functions known never to return although their
// bodies do not show it, or whose bodies are not at hand: the runtime's
// exits, os.Exit, log's Fatal and Panic functions and methods, and
// testing's FailNow, Fatal and Skip methods.
func Intrinsic(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "os.Exit", "syscall.Exit", "runtime.Goexit",
		"log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln":
		return true
	case "testing.FailNow", "testing.Fatal", "testing.Fatalf", "testing.SkipNow", "testing.Skip", "testing.Skipf":
		sig, ok := fn.Type().(*types.Signature)
		return ok && sig.Recv() != nil // (*testing.common) and the types embedding it
	}
	return false
}

// NoReturn finds, to a fixpoint, the functions of decls that never
// return: a body with no return statement whose last statement is a call
// that never returns (panic, an intrinsic, or such a function of this or,
// through known, another package). Only the last statement is judged, so
// a body that cannot return for a subtler reason is taken to return: the
// graphs then keep an edge no path takes, which never makes a finding.
func NoReturn(info *types.Info, decls []*ast.FuncDecl, known func(*types.Func) bool) map[*types.Func]bool {
	out := make(map[*types.Func]bool)
	never := func(fn *types.Func) bool { return out[fn] || Intrinsic(fn) || known(fn) }
	declOf := make(map[*types.Func]*ast.FuncDecl, len(decls))
	for _, d := range decls {
		if fn, ok := info.Defs[d.Name].(*types.Func); ok {
			declOf[fn] = d
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			fn, ok := info.Defs[d.Name].(*types.Func)
			if !ok || d.Body == nil || out[fn] || len(d.Body.List) == 0 {
				continue
			}
			last, ok := d.Body.List[len(d.Body.List)-1].(*ast.ExprStmt)
			if !ok {
				continue
			}
			call, ok := ast.Unparen(last.X).(*ast.CallExpr)
			if !ok || !(isPanic(info, call) || never(callee(info, call))) || HasReturn(d.Body) {
				continue
			}
			if !exits(call, info) && defersRecover(info, d.Body, declOf) {
				continue // the panic may be recovered: the function returns
			}
			out[fn] = true
			changed = true
		}
	}
	return out
}

// HasReturn reports whether n holds a return statement of its own
// function (not of a nested function literal).
func HasReturn(n ast.Node) bool {
	return holds(n, func(n ast.Node) bool { _, ok := n.(*ast.ReturnStmt); return ok })
}

// holds reports whether n holds a node of its own function (not of a
// nested function literal) that match accepts.
func holds(n ast.Node, match func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		found = found || match(n)
		return !found
	})
	return found
}

// callee returns the function or method a call invokes, or nil.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// exits reports whether call ends the process or the goroutine rather
// than panicking: no deferred recover can turn it into a return.
func exits(call *ast.CallExpr, info *types.Info) bool { return exitsFunc(callee(info, call)) }

// exitsFunc is exits for a resolved callee.
func exitsFunc(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "os.Exit", "syscall.Exit", "runtime.Goexit", "log.Fatal", "log.Fatalf", "log.Fatalln":
		return true
	}
	return false
}

// defersRecover reports whether body defers, itself, a call whose function
// calls recover directly (a function literal, or a function of the
// package): the only place a recover stops a panic, which then returns
// normally (func audit() { defer func() { recover() }(); panic("x") }).
// A deferred function that also panics is taken to panic again
// (if r := recover(); r != nil { log(r); panic(r) }), and a deferred call
// of another package's function not to recover.
func defersRecover(info *types.Info, body *ast.BlockStmt, declOf map[*types.Func]*ast.FuncDecl) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			var deferred *ast.BlockStmt
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				deferred = lit.Body
			} else if d := declOf[callee(info, n.Call)]; d != nil {
				deferred = d.Body
			}
			found = found || deferred != nil && callsBuiltin(info, deferred, "recover") && !callsBuiltin(info, deferred, "panic")
		}
		return !found
	})
	return found
}

// callsBuiltin reports whether body calls the builtin name itself (not in
// a nested function literal).
func callsBuiltin(info *types.Info, body *ast.BlockStmt, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == name {
				if _, builtin := info.Uses[id].(*types.Builtin); builtin {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
