package barenak

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/edit"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/goast"
	"github.com/retrylint/retrylint/analyzers/internal/gotypes"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// Name is the analyzer's name.
const Name = "barenak"

// FlagUnclassified is the flag that turns off (=false) the report of bare
// Naks on the error branch of a call whose error was never classified.
const FlagUnclassified = "unclassified"

// Analyzer is barenak on the default contract model.
var Analyzer = New(contract.Analyzer)

// Config is barenak's configuration, bound to its flags.
type Config struct {
	// Unclassified reports a bare Nak() on the error branch of a call
	// whose error was never classified (default true).
	Unclassified bool
}

// New returns barenak built on model, a contract analyzer, with its own
// configuration bound to its flags.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	cfg := new(Config)
	a := checks.New(model, checks.Spec{
		Name:      Name,
		DocSource: docSource,
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			c := &checker{pass: pass, m: m, cfg: cfg, at: at}
			c.run()
		},
	})
	a.Flags.BoolVar(&cfg.Unclassified, FlagUnclassified, true,
		"report a bare Nak() on the error branch of a call whose error was never classified (=false turns it off)")
	return a
}

// asRecipe is how a message tells to look up a retry delay.
const asRecipe = "errors.As(%s, &rd)"

// delayedRetry is the method that redelivers after a delay in nak's
// message library (NakWithDelay), for messages and the fix.
func delayedRetry(nak contract.AckCall) string {
	if name := nak.Profile.DelayedRetry(); name != "" {
		return name
	}
	return "a delayed retry"
}

type checker struct {
	pass *analysis.Pass
	m    *contract.Model
	cfg  *Config
	at   *token.Pos // position being checked, for internal errors
}

func (c *checker) run() {
	c.m.Paths().VisitAckCalls(contract.AckCall.IsBareNak, c.at, c.check)
	c.checkHelpers()
}

// checkHelpers reports a call of a helper that bare-Naks the message it is
// given, on a transient path, when the helper's condition says it does
// with the argument passed (see contract.HelperSettlesWith). A helper that
// bare-Naks after its own successful classification is reported inside.
func (c *checker) checkHelpers() {
	c.m.Paths().VisitHelperSettles(profile.RetryNow, c.at, func(facts contract.PathFacts, h contract.HelperSettle) {
		if facts.Transient == nil || facts.ZeroDelay || !c.m.Messages().Redelivered(h.Msg) || !contract.HelperSettlesWith(c.pass.TypesInfo, h, facts.Transient.Err) {
			return
		}
		what := "a transient error"
		if facts.Transient.Err != nil {
			what = "transient error " + facts.Transient.Err.Name()
		}
		d := analysis.Diagnostic{
			Pos: h.Call.Pos(), End: h.Call.End(),
			Message: fmt.Sprintf("call to %s bare-Naks the message on the transient path of %s: it is redelivered at once and its retry delay is dropped; "+
				"look up the delay and call %s (or make %s take it)", h.Name, what, c.m.Messages().DelayedRetry(h.Msg), h.Name),
		}
		if h.Inner.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: h.Inner, Message: "the bare Nak inside " + h.Name})
		}
		c.m.Report(c.pass, d)
	})
}

// check reports nak when it is on a transient path (or on the error
// branch of an unclassified call's error) and the delay is not known to be
// zero.
func (c *checker) check(paths *contract.ErrorPaths, nak contract.AckCall) {
	facts, ok := paths.At(nak.Call)
	if !ok || facts.ZeroDelay || !c.m.Messages().Redelivered(nak.Recv) {
		return
	}
	switch {
	case facts.Transient != nil:
		c.reportTransient(nak, facts.Transient)
	case c.cfg.Unclassified && facts.Unclassified != nil:
		c.reportUnclassified(nak, facts.Unclassified)
	}
}

// reportUnclassified reports a bare Nak on the error branch of the calls
// whose error err holds, never classified: in an outage of what those
// calls reach the message loops up to MaxDeliver at once. A decode's error
// is poisonack's, and an error whose origin is not a call that failed
// (a parameter, a context's cancellation) stays quiet.
func (c *checker) reportUnclassified(nak contract.AckCall, err *types.Var) {
	if _, decode := c.m.Handlers().DecodeAssignedTo(err, nak.Call.Pos()); decode {
		return
	}
	calls := c.m.Handlers().ErrorCalls(err, nak.Call.Pos())
	if len(calls) == 0 {
		return
	}
	var names []string
	var related []analysis.RelatedInformation
	for _, call := range calls {
		if _, decode := c.m.Handlers().AsDecode(call); decode {
			return
		}
		name := goast.CalleeText(call.Fun)
		if name == "" {
			name = "a function literal"
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		related = append(related, analysis.RelatedInformation{Pos: call.Pos(), End: call.End(), Message: "the error " + nak.Method + " retries comes from here"})
	}
	c.m.Report(c.pass, analysis.Diagnostic{
		Pos: nak.Call.Pos(), End: nak.Call.End(),
		Message: fmt.Sprintf("bare %s on the unclassified error of %s redelivers at once: in an outage of what it calls the message loops up to MaxDeliver; "+
			"call %s with a backoff (or classify %s first)", nak.Method, strings.Join(names, " or "), delayedRetry(nak), err.Name()),
		Related: related,
	})
}

// reportTransient reports a bare Nak on a transient path, with the
// NakWithDelay fix when the classification's delay is in scope.
func (c *checker) reportTransient(nak contract.AckCall, t *contract.TransientPath) {
	what := "a transient error"
	if t.Err != nil {
		what = "transient error " + t.Err.Name()
	}
	if !t.Classified {
		what = "a retryable error"
		if t.Err != nil {
			what = "retryable error " + t.Err.Name()
		}
		if call, ok := t.Origin.(*ast.CallExpr); ok {
			if name := goast.CalleeName(call); name != "" {
				what += " from " + name
			}
		}
	}
	d := analysis.Diagnostic{Pos: nak.Call.Pos(), End: nak.Call.End()}
	delay := c.m.DelayExpr(t, nak.Call.Pos())
	if delay != "" {
		d.Message = fmt.Sprintf("bare %s redelivers %s at once and drops its retry delay: call %s(%s)", nak.Method, what, delayedRetry(nak), delay)
		if fix := c.fix(nak, delay); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
	} else {
		arg := "err"
		if t.Err != nil {
			arg = t.Err.Name()
		}
		d.Message = fmt.Sprintf("bare %s redelivers %s at once and drops its retry delay: look up the delay with "+asRecipe+
			" and call %s(rd.%s())", nak.Method, what, arg, delayedRetry(nak), c.m.Config().CarrierMethod)
	}
	if t.Origin != nil {
		msg := "classified as transient here"
		if !t.Classified {
			msg = "retryable error produced here"
		}
		d.Related = []analysis.RelatedInformation{{Pos: t.Origin.Pos(), End: t.Origin.End(), Message: msg}}
	}
	c.m.Report(c.pass, d)
}

// fix replaces Nak(opts...) with NakWithDelay(delay, opts...) when the
// receiver's NakWithDelay accepts that.
func (c *checker) fix(nak contract.AckCall, delay string) *analysis.SuggestedFix {
	sel, ok := ast.Unparen(nak.Call.Fun).(*ast.SelectorExpr)
	if !ok || !c.acceptsDelay(nak) {
		return nil
	}
	insert := delay
	if len(nak.Call.Args) > 0 {
		insert += ", "
	}
	at := nak.Call.Lparen + 1
	fix := edit.Fix(fmt.Sprintf("Replace %s with %s(%s)", nak.Method, nak.Profile.DelayedRetry(), delay),
		edit.ReplaceWithString(sel.Sel, nak.Profile.DelayedRetry()),
		edit.ReplaceWithString(edit.Range{at, at}, insert))
	return &fix
}

// acceptsDelay reports whether the message has NakWithDelay(time.Duration,
// ...) that takes the Nak call's other arguments too.
func (c *checker) acceptsDelay(nak contract.AckCall) bool {
	info := c.pass.TypesInfo
	recv := info.TypeOf(nak.Recv)
	if recv == nil {
		return false
	}
	name := nak.Profile.DelayedRetry()
	if name == "" {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(recv, true, c.pass.Pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Params().Len() == 0 || !gotypes.IsDuration(sig.Params().At(0).Type()) {
		return false
	}
	args := nak.Call.Args
	switch {
	case sig.Params().Len() == 1:
		return len(args) == 0
	case sig.Params().Len() == 2 && sig.Variadic():
		if nak.Call.Ellipsis.IsValid() {
			return len(args) == 1 && types.AssignableTo(info.TypeOf(args[0]), sig.Params().At(1).Type())
		}
		elem := sig.Params().At(1).Type().(*types.Slice).Elem()
		for _, a := range args {
			if !types.AssignableTo(info.TypeOf(a), elem) {
				return false
			}
		}
		return true
	}
	return false
}
