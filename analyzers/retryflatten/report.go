package retryflatten

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/edit"

	"github.com/retrylint/retrylint/analyzers/internal/printf"
)

func verbFor(verbs []printf.Verb, arg int) (printf.Verb, bool) {
	for _, v := range verbs {
		if v.Arg == arg {
			return v, true
		}
	}
	return printf.Verb{}, false
}

// verbFix rewrites the verb of argument i to %w; when errCall is x.Error(),
// it also replaces the call with x. It returns nil when the edit is not
// mechanical: a format that is not one literal, a verb with flags, or a
// literal whose source does not spell the same verbs as its value.
func (c *checker) verbFix(call *ast.CallExpr, i int, errCall ast.Expr) *analysis.SuggestedFix {
	lit, ok := ast.Unparen(call.Args[0]).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || len(lit.Value) < 2 {
		return nil
	}
	value, _ := printf.ConstString(c.pass.TypesInfo, lit)
	src := lit.Value[1 : len(lit.Value)-1]
	valueVerbs, srcVerbs := printf.ParseVerbs(value), printf.ParseVerbs(src)
	if len(valueVerbs) != len(srcVerbs) {
		return nil
	}
	for k := range valueVerbs {
		if valueVerbs[k].Verb != srcVerbs[k].Verb || valueVerbs[k].Arg != srcVerbs[k].Arg {
			return nil
		}
	}
	v, ok := verbFor(srcVerbs, i)
	if !ok || (v.Verb != 'v' && v.Verb != 's') || src[v.Offset-1] != '%' {
		return nil
	}
	pos := lit.Pos() + 1 + token.Pos(v.Offset)
	edits := []analysis.TextEdit{edit.ReplaceWithString(edit.Range{pos, pos + 1}, "w")}
	if errCall != nil {
		inner := ast.Unparen(errCall).(*ast.CallExpr)
		x := ast.Unparen(inner.Fun).(*ast.SelectorExpr).X
		edits = append(edits, edit.Delete(edit.Range{x.End(), errCall.End()})) // err.Error() -> err
	}
	fix := edit.Fix("Wrap the error with %w", edits...)
	return &fix
}

func (c *checker) report(fl flattening) {
	name := types.ExprString(fl.operand)
	d := analysis.Diagnostic{Pos: fl.node.Pos(), End: fl.node.End()}
	switch fl.kind {
	case verbFlatten:
		d.Message = fmt.Sprintf("retryable error %s formatted with %s loses its retry delay: wrap it with %%w", name, fl.verb)
	case textFlatten:
		d.Message = fmt.Sprintf("new error built from the text of retryable error %s loses its retry delay: wrap it with fmt.Errorf and %%w", name)
	case fieldFlatten:
		d.Message = fmt.Sprintf("%s keeps only the text of retryable error %s and loses its retry delay: store the error and give %s an Unwrap method",
			typeName(fl.typ, c.pass.Pkg), name, typeName(fl.typ, c.pass.Pkg))
	case opaqueWrapper:
		d.Message = fmt.Sprintf("%s wraps retryable error %s but has no Unwrap method, so errors.As cannot find its retry delay: add Unwrap() error",
			typeName(fl.typ, c.pass.Pkg), name)
	case helperFlatten:
		d.Message = fmt.Sprintf("%s flattens retryable error %s to a string and loses its retry delay: make %s wrap it with %%w",
			fl.helper.Name(), name, fl.helper.Name())
		if fl.helper.Pos().IsValid() {
			d.Related = []analysis.RelatedInformation{{Pos: fl.helper.Pos(), Message: fl.helper.Name() + " flattens its error parameter here"}}
		}
	}
	d.Related = append(d.Related, fl.related...)
	if fl.fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fl.fix}
	}
	c.m.Report(c.pass, d)
}

func typeName(t types.Type, pkg *types.Package) string {
	return types.TypeString(t, func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		return other.Name()
	})
}
