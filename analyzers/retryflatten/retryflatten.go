package retryflatten

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/internal/printf"
)

// Name is the analyzer's name.
const Name = "retryflatten"

// Analyzer is retryflatten on the default contract model.
var Analyzer = New(contract.Analyzer)

// New returns retryflatten built on model, a contract analyzer.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		FactTypes: []analysis.Fact{new(FlattensFact)},
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			c := &checker{pass: pass, m: m, at: at}
			c.run()
		},
	})
}

// FlattensFact marks a function that flattens the error parameters Params
// into text or an opaque wrapper.
type FlattensFact struct {
	Params []int
}

func (*FlattensFact) AFact() {}

// SeenBySilent: the contract's silence rules account for flattening
// helpers (contract.Silence).
func (*FlattensFact) SeenBySilent() bool { return true }
func (f *FlattensFact) String() string {
	s := "flattens param"
	for _, p := range f.Params {
		s += fmt.Sprintf(" %d", p)
	}
	return s
}

// kind is how a flattening loses the error.
type kind int

const (
	verbFlatten   kind = iota // fmt.Errorf("%v", err)
	textFlatten               // errors.New(err.Error())
	fieldFlatten              // &AppError{Msg: err.Error()}
	opaqueWrapper             // &AppError{Err: err} without Unwrap
	helperFlatten             // wrapErr(err) where wrapErr flattens
)

// flattening is one place where an error operand stops being an error.
type flattening struct {
	kind    kind
	node    ast.Node // the call or literal to report at
	operand ast.Expr // the error that is lost
	verb    string   // for verbFlatten: the directive as written, "%+v"
	typ     types.Type
	helper  *types.Func
	fix     *analysis.SuggestedFix
	related []analysis.RelatedInformation // more places, after those of its kind
}

type checker struct {
	pass *analysis.Pass
	m    *contract.Model
	at   *token.Pos // position being checked, for internal errors

	flattens map[*types.Func][]int // this package's flattening helpers
}

func (c *checker) run() {
	if c.pass.TypesInfo == nil {
		return
	}
	c.inferHelpers()
	if !c.m.RetryInSight() {
		return // no error of the package may be retryable
	}
	paths := make(map[*ast.BlockStmt]*contract.ErrorPaths)
	for _, f := range c.pass.Files {
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok && c.m.IsTestFunc(fd) {
				return false
			}
			for _, fl := range c.flattenings(n) {
				*c.at = fl.node.Pos()
				retryable, at := c.m.Producers().MayBeRetryable(fl.operand), ast.Node(nil)
				if !retryable {
					at, retryable = c.deferredResult(fl, stack) // a deferred re-annotation
				}
				if retryable && !c.classifiedPermanent(fl, stack, paths) {
					c.report(withDeferredReturn(fl, at))
				}
			}
			return true
		})
	}
}

// classifiedPermanent reports whether the flattened operand is a variable
// whose retry classification failed on every path to the flattening
// (if _, ok := RetryDelay(err); ok { return err }; fmt.Errorf("%v", err)):
// it provably carries no retry intent there, so nothing is lost.
func (c *checker) classifiedPermanent(fl flattening, stack []ast.Node, paths map[*ast.BlockStmt]*contract.ErrorPaths) bool {
	call, ok := fl.node.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(fl.operand).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	body := goast.EnclosingBody(stack)
	if body == nil {
		return false
	}
	ep, ok := paths[body]
	if !ok {
		ep = c.m.Paths().ErrorPaths(body)
		paths[body] = ep
	}
	return ep.NoRetryIntent(call, v)
}

// inferHelpers finds, to a fixpoint, the functions of the package that
// flatten one of their error parameters, and exports them as facts.
func (c *checker) inferHelpers() {
	c.flattens = make(map[*types.Func][]int)
	var decls []*ast.FuncDecl
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls = append(decls, fd)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			fn, _ := c.pass.TypesInfo.Defs[d.Name].(*types.Func)
			if fn == nil {
				continue
			}
			params := errorParams(c.m, fn)
			if len(params) == 0 {
				continue
			}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				for _, fl := range c.flattenings(n) {
					id, ok := ast.Unparen(fl.operand).(*ast.Ident)
					if !ok {
						continue
					}
					for i, p := range params {
						if p != nil && c.pass.TypesInfo.Uses[id] == p && !slices.Contains(c.flattens[fn], i) {
							c.flattens[fn] = append(c.flattens[fn], i)
							changed = true
						}
					}
				}
				return true
			})
		}
	}
	for _, d := range decls {
		fn, _ := c.pass.TypesInfo.Defs[d.Name].(*types.Func)
		if params := c.flattens[fn]; len(params) > 0 {
			slices.Sort(params)
			c.pass.ExportObjectFact(fn, &FlattensFact{Params: params})
		}
	}
}

// errorParams returns fn's parameters indexed by position, nil where the
// parameter is not an error of unknown origin (carrier-typed parameters
// are checked in the body itself).
func errorParams(m *contract.Model, fn *types.Func) []*types.Var {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return nil
	}
	var out []*types.Var
	found := false
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if gotypes.IsError(p.Type()) && !m.Producers().IsCarrier(p.Type()) {
			out = append(out, p)
			found = true
		} else {
			out = append(out, nil)
		}
	}
	if !found {
		return nil
	}
	return out
}

// flattenedParams returns the parameters fn flattens, from this package's
// inference or from a fact.
func (c *checker) flattenedParams(fn *types.Func) []int {
	if fn.Pkg() == c.pass.Pkg {
		return c.flattens[fn]
	}
	var f FlattensFact
	if c.pass.ImportObjectFact(fn, &f) {
		return f.Params
	}
	return nil
}

// flattenings lists the error operands that node n turns into something
// that no longer holds them.
func (c *checker) flattenings(n ast.Node) []flattening {
	switch n := n.(type) {
	case *ast.CallExpr:
		return c.callFlattenings(n)
	case *ast.CompositeLit:
		return c.literalFlattenings(n)
	}
	return nil
}

func (c *checker) callFlattenings(call *ast.CallExpr) []flattening {
	info := c.pass.TypesInfo
	fn := gotypes.StaticCallee(info, call)
	if fn == nil {
		return nil
	}
	var out []flattening
	switch {
	case gotypes.IsPkgFunc(fn, "fmt", "Errorf"):
		out = append(out, c.errorfFlattenings(call)...)
	case gotypes.IsPkgFunc(fn, "errors", "New"):
		if len(call.Args) == 1 {
			for _, op := range c.stringified(call.Args[0]) {
				out = append(out, flattening{kind: textFlatten, node: call, operand: op})
			}
		}
	default:
		for _, p := range c.flattenedParams(fn) {
			if p < len(call.Args) && !isVariadicTail(fn, p) {
				out = append(out, flattening{kind: helperFlatten, node: call, operand: call.Args[p], helper: fn})
			}
		}
	}
	return out
}

func isVariadicTail(fn *types.Func, p int) bool {
	sig, ok := fn.Type().(*types.Signature)
	return !ok || (sig.Variadic() && p >= sig.Params().Len()-1)
}

// errorfFlattenings finds the operands of fmt.Errorf that are formatted
// with a verb other than %w, and error text used in its format or
// arguments.
func (c *checker) errorfFlattenings(call *ast.CallExpr) []flattening {
	if len(call.Args) == 0 {
		return nil
	}
	info := c.pass.TypesInfo
	var out []flattening
	for _, op := range c.stringified(call.Args[0]) {
		out = append(out, flattening{kind: textFlatten, node: call, operand: op})
	}
	format, ok := printf.ConstString(info, call.Args[0])
	if !ok {
		return out
	}
	verbs := printf.ParseVerbs(format)
	wrapped := printf.WrappedOperands(info, call)
	for i, arg := range call.Args[1:] {
		if slices.ContainsFunc(wrapped, func(w ast.Expr) bool { return sameValue(info, w, arg) }) {
			continue // fmt.Errorf("%w (%v)", err, err): the error is kept
		}
		verb, hasVerb := verbFor(verbs, i)
		if isErrorValue(info, c.m, arg) {
			if hasVerb && verb.Verb != 'w' {
				out = append(out, flattening{kind: verbFlatten, node: call, operand: arg, verb: format[verb.Start : verb.Offset+1],
					fix: c.verbFix(call, i, nil)})
			}
			continue
		}
		for _, op := range c.stringified(arg) {
			if slices.ContainsFunc(wrapped, func(w ast.Expr) bool { return sameValue(info, w, op) }) {
				continue // fmt.Errorf("%w: %s", err, err.Error())
			}
			fl := flattening{kind: textFlatten, node: call, operand: op}
			if hasVerb && isErrorCall(arg) {
				fl.fix = c.verbFix(call, i, arg)
			}
			out = append(out, fl)
		}
	}
	return out
}

// sameValue reports whether a and b denote the same variable, or are the
// same expression when neither is a plain variable.
func sameValue(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	ia, okA := a.(*ast.Ident)
	ib, okB := b.(*ast.Ident)
	if okA && okB {
		oa, ob := info.Uses[ia], info.Uses[ib]
		return oa != nil && oa == ob
	}
	return types.ExprString(a) == types.ExprString(b)
}

// isErrorValue reports whether e is an error (or carrier) value, as opposed
// to text.
func isErrorValue(info *types.Info, m *contract.Model, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t != nil && (gotypes.IsError(t) || m.Producers().IsCarrier(t))
}

// isErrorCall reports whether e is x.Error().
func isErrorCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Error"
}

// stringified returns the error operands whose text a string expression is
// built from: x.Error(), fmt.Sprint/Sprintf/Sprintln(..., x, ...), and
// concatenations of those.
func (c *checker) stringified(e ast.Expr) []ast.Expr {
	info := c.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if e.Op == token.ADD && isString(info.TypeOf(e)) {
			return append(c.stringified(e.X), c.stringified(e.Y)...)
		}
	case *ast.CallExpr:
		if isErrorCall(e) {
			sel := ast.Unparen(e.Fun).(*ast.SelectorExpr)
			if s := info.Selections[sel]; s != nil && isErrorValue(info, c.m, sel.X) {
				if fn, ok := s.Obj().(*types.Func); ok && isErrorMethod(fn) {
					return []ast.Expr{sel.X}
				}
			}
			return nil
		}
		fn := gotypes.StaticCallee(info, e)
		if gotypes.IsPkgFunc(fn, "fmt", "Sprint") || gotypes.IsPkgFunc(fn, "fmt", "Sprintf") || gotypes.IsPkgFunc(fn, "fmt", "Sprintln") {
			var out []ast.Expr
			for _, arg := range e.Args {
				if isErrorValue(info, c.m, arg) {
					out = append(out, arg)
				} else {
					out = append(out, c.stringified(arg)...)
				}
			}
			return out
		}
	}
	return nil
}

func isString(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isErrorMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().(*types.Basic)
	return ok && b.Kind() == types.String
}

// literalFlattenings finds composite literals of error types that keep only
// an error's text, or hold an error without a way for errors.As to reach it.
func (c *checker) literalFlattenings(lit *ast.CompositeLit) []flattening {
	info := c.pass.TypesInfo
	typ := info.TypeOf(lit)
	if typ == nil {
		return nil
	}
	if _, isStruct := typ.Underlying().(*types.Struct); !isStruct {
		return nil
	}
	if !gotypes.IsError(typ) && !gotypes.IsError(types.NewPointer(typ)) {
		return nil
	}
	if c.m.Producers().IsCarrierPtr(typ) {
		return nil // the wrapper carries retry intent itself
	}
	var values []ast.Expr
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		values = append(values, elt)
	}
	keepsError := slices.ContainsFunc(values, func(v ast.Expr) bool { return isErrorValue(info, c.m, v) })
	var out []flattening
	if !keepsError {
		for _, v := range values {
			for _, op := range c.stringified(v) {
				out = append(out, flattening{kind: fieldFlatten, node: lit, operand: op, typ: typ})
			}
		}
		return out
	}
	if gotypes.HasUnwrap(typ, c.pass.Pkg) || hasMethod(typ, c.pass.Pkg, "As") {
		return nil
	}
	for _, v := range values {
		if isErrorValue(info, c.m, v) {
			out = append(out, flattening{kind: opaqueWrapper, node: lit, operand: v, typ: typ})
		}
	}
	return out
}

func hasMethod(t types.Type, pkg *types.Package, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), false, pkg, name)
	_, ok := obj.(*types.Func)
	return ok
}
