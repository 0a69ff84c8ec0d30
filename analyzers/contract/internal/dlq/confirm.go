package dlq

import (
	"go/ast"
	"go/types"
	"strings"
)

// Unconfirmed writes (CONTRACT.md version 3): a DLQ write whose success
// the caller cannot know. A sink that returns nothing, a publish whose nil
// error only means "buffered", and an async publish whose future nobody
// awaits all leave the caller that then Terms or Acks without evidence
// that the evidence exists.

// unconfirmed fills in why the caller of a DLQ write w cannot know that it
// stored the evidence, and how it could: a call of a writer that returns
// no error and is not a SyncWriter, a publish of a buffered connection,
// an async publish.
func (m *Result) unconfirmed(w *DLQWrite, fn *types.Func, sync bool) {
	switch {
	case m.msgs.IsBufferedPublish(fn):
		w.Unconfirmed = "a publish of " + recvName(fn) + ", whose nil error means buffered, not stored"
		w.ConfirmFix = "publish through JetStream (js.Publish) and check its ack"
	case m.msgs.IsAsyncPublish(fn):
		w.Async = true
		w.Unconfirmed = "an async publish whose ack is not awaited"
		w.ConfirmFix = "await its future (" + strings.Join(m.msgs.AwaitNames(fn), ", ") + ") and check it"
	case !w.HasError() && !w.Swallows && !sync:
		w.Unconfirmed = "which returns no error, so its failure cannot be known"
		w.ConfirmFix = "make the sink return its error and check it"
	}
}

func isEmptyTuple(t types.Type) bool {
	tup, ok := t.(*types.Tuple)
	return ok && tup.Len() == 0
}

func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// calleeName returns the name of a called func value: f in f(x),
// deadLetterSink in cfg.deadLetterSink(ctx, ev).
func calleeName(fun ast.Expr) (string, bool) {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f.Name, true
	case *ast.SelectorExpr:
		return f.Sel.Name, true
	}
	return "", false
}

// recvName names fn's receiver type for messages: *nats.Conn.
func recvName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return fn.Name()
	}
	return types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() })
}
