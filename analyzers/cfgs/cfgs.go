// Package cfgs builds the control-flow graph of every function body of a
// package, once, for the contract model and the checks to share.
//
// It does what golang.org/x/tools/go/analysis/passes/ctrlflow does, with
// one difference that retrylint needs: it runs on packages with type
// errors (ctrlflow does not, and every check must). A function whose body
// cannot return (it ends in panic, os.Exit, log.Fatal, or a call of
// another such function, in any package) gets a NoReturnFact, and calls
// of it end their block in every CFG.
package cfgs

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

// Analyzer builds the CFGs of a package; its result is a *Graphs.
var Analyzer = &analysis.Analyzer{
	Name:             "retrycfgs",
	Doc:              "builds one control-flow graph per function body, with no-return facts (reports nothing)",
	URL:              "https://github.com/retrylint/retrylint/tree/main/analyzers/cfgs",
	Requires:         []*analysis.Analyzer{inspect.Analyzer},
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Graphs](),
	FactTypes:        []analysis.Fact{new(NoReturnFact)},
	Run:              run,
}

// NoReturnFact marks a function whose body cannot return normally.
type NoReturnFact struct{}

func (*NoReturnFact) AFact()         {}
func (*NoReturnFact) String() string { return "no return" }

// Graphs holds the CFG of every function declaration and literal of a
// package, by body. It is complete when the analyzer's Run returns and
// never changes afterwards.
type Graphs struct {
	byBody map[*ast.BlockStmt]*cfg.CFG
}

// Of returns the CFG of a function declaration's or literal's body, or nil
// for a body of another package.
func (g *Graphs) Of(body *ast.BlockStmt) *cfg.CFG {
	if g == nil {
		return nil
	}
	return g.byBody[body]
}

// BuildHook, when set (by tests), is called before each cfg.New, with the
// body it builds.
var BuildHook func(body *ast.BlockStmt)

// builder builds a package's CFGs, declarations first, in call-graph
// order so that a declaration's no-return status is known before its
// callers' graphs are built.
type builder struct {
	pass     *analysis.Pass
	graphs   *Graphs
	decls    map[*types.Func]*ast.FuncDecl
	started  map[*types.Func]bool
	noReturn map[*types.Func]bool
}

func run(pass *analysis.Pass) (any, error) {
	b := &builder{
		pass:     pass,
		graphs:   &Graphs{byBody: make(map[*ast.BlockStmt]*cfg.CFG)},
		decls:    make(map[*types.Func]*ast.FuncDecl),
		started:  make(map[*types.Func]bool),
		noReturn: make(map[*types.Func]bool),
	}
	var decls []*ast.FuncDecl
	var lits []*ast.FuncLit
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body == nil {
				return
			}
			decls = append(decls, n)
			if fn, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
				b.decls[fn] = n
			}
		case *ast.FuncLit:
			lits = append(lits, n)
		}
	})
	for _, d := range decls {
		if fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func); ok && b.decls[fn] == d {
			b.decl(fn)
		} else {
			b.build(d.Body) // type errors: no object, no fact
		}
	}
	for _, lit := range lits {
		b.build(lit.Body)
	}
	return b.graphs, nil
}

// decl builds fn's CFG, once, and exports its NoReturnFact. Recursion
// through mayReturn follows the static call graph; a cycle is cut where it
// closes (the function is then taken to return).
func (b *builder) decl(fn *types.Func) {
	if b.started[fn] {
		return
	}
	b.started[fn] = true
	g := b.build(b.decls[fn].Body)
	if g.NoReturn() || intrinsicNoReturn(fn) {
		b.noReturn[fn] = true
		b.pass.ExportObjectFact(fn, new(NoReturnFact))
	}
}

func (b *builder) build(body *ast.BlockStmt) *cfg.CFG {
	if g, ok := b.graphs.byBody[body]; ok {
		return g
	}
	if BuildHook != nil {
		BuildHook(body)
	}
	g := cfg.New(body, b.mayReturn)
	b.graphs.byBody[body] = g
	return g
}

// mayReturn reports whether a call may return: not panic, not a function
// known (in this package, by a fact, or intrinsically) never to return.
func (b *builder) mayReturn(call *ast.CallExpr) bool {
	info := b.pass.TypesInfo
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if bi, ok := info.Uses[id].(*types.Builtin); ok && bi.Name() == "panic" {
			return false
		}
	}
	fn := staticCallee(info, call)
	if fn == nil {
		return true
	}
	fn = fn.Origin()
	if _, local := b.decls[fn]; local {
		b.decl(fn)
		return !b.noReturn[fn]
	}
	if intrinsicNoReturn(fn) {
		return false
	}
	return fn.Pkg() == nil || fn.Pkg() == b.pass.Pkg || !b.pass.ImportObjectFact(fn, new(NoReturnFact))
}

// intrinsicNoReturn reports the functions that never return although
// their bodies do not show it (they stop the thread in the runtime), and
// the standard library's that must be known even where the standard
// library is not analyzed from source.
func intrinsicNoReturn(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "os.Exit", "syscall.Exit", "runtime.Goexit",
		"log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln":
		return true
	case "testing.FailNow", "testing.Fatal", "testing.Fatalf", "testing.SkipNow", "testing.Skip", "testing.Skipf":
		return isMethod(fn) // (*testing.common) and the types embedding it
	}
	return false
}

func isMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil
}

// staticCallee returns the function or method a call invokes statically,
// or nil (func values, interface methods).
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	var obj types.Object
	switch f := fun.(type) {
	case *ast.Ident:
		obj = info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			if _, iface := sel.Recv().Underlying().(*types.Interface); iface {
				return nil
			}
			obj = sel.Obj()
		} else {
			obj = info.Uses[f.Sel]
		}
	}
	fn, _ := obj.(*types.Func)
	return fn
}
