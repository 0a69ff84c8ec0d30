package cfgs_test

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/analyzers/cfgs"
)

// graphSrc holds the bodies the Graphs tests build: calls of a function
// that never returns, of one that does, of panic, of a generic instance.
const graphSrc = `package p

func stop()  {}
func goes()  {}
func stopG[T any](T) {}

func callsStop()   { stop(); goes() }
func callsGoes()   { goes(); goes() }
func callsPanic()  { panic(0); goes() }
func callsStopG()  { stopG(1); goes() }
func callsValue()  { f := stop; f(); goes() }
func literal()     { _ = func() { stop(); goes() } }
`

// lastLive reports whether the last statement of body, goes(), lies in a
// live block of g: whether a path reaches it past the calls before it.
func lastLive(t *testing.T, g *cfg.CFG, body *ast.BlockStmt) bool {
	t.Helper()
	last := body.List[len(body.List)-1]
	for _, b := range g.Blocks {
		if slices.Contains(b.Nodes, ast.Node(last)) {
			return b.Live
		}
	}
	t.Fatal("the last statement is in no block")
	return false
}

// TestGraphsNoReturn proves that a graph of Graphs ends a path at a call
// of panic or of a function noReturn names (generic instances by their
// declaration), and not at other calls nor at calls through a function
// value; and that noReturn is asked with the declared function.
func TestGraphsNoReturn(t *testing.T) {
	f, info, _ := checked(t, graphSrc)
	fds := funcDecls(f)
	var asked []string
	g := cfgs.New(info, func(fn *types.Func) bool {
		asked = append(asked, fn.Name())
		if fn.Origin() != fn {
			t.Errorf("noReturn asked with the instance %v, not its declaration", fn)
		}
		return fn.Name() == "stop" || fn.Name() == "stopG"
	})
	tests := []struct {
		fn   string
		live bool // whether goes() after the first call is reachable
	}{
		{"callsStop", false},
		{"callsGoes", true},
		{"callsPanic", false},
		{"callsStopG", false},
		{"callsValue", true},
	}
	for _, tt := range tests {
		c := g.Of(fds[tt.fn].Body)
		if c == nil {
			t.Fatalf("no graph for %s", tt.fn)
		}
		if got := lastLive(t, c, fds[tt.fn].Body); got != tt.live {
			t.Errorf("%s: goes() after the first call live = %v, want %v", tt.fn, got, tt.live)
		}
	}
	if slices.Contains(asked, "panic") {
		t.Errorf("noReturn was asked about panic: %v", asked)
	}
	// A literal's body is a body like any other.
	var lit *ast.FuncLit
	ast.Inspect(fds["literal"], func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok {
			lit = l
		}
		return true
	})
	if got := lastLive(t, g.Of(lit.Body), lit.Body); got {
		t.Error("literal: goes() after stop() is live")
	}
}

// TestGraphsOnce proves that Of builds one graph per body, once, and
// returns it on every later call, before and after Freeze; that after
// Freeze a body not built before gets a graph built on the spot each time,
// none kept; and that Of answers nil for a nil body or a nil set.
func TestGraphsOnce(t *testing.T) {
	f, info, _ := checked(t, graphSrc)
	fds := funcDecls(f)
	builds := map[*ast.BlockStmt]int{}
	g := cfgs.New(info, func(*types.Func) bool { return false }, cfgs.OnBuild(func(b *ast.BlockStmt) { builds[b]++ }))
	stop, goes, panics := fds["callsStop"].Body, fds["callsGoes"].Body, fds["callsPanic"].Body
	first := g.Of(stop)
	if first == nil {
		t.Fatal("Of returned no graph")
	}
	if again := g.Of(stop); again != first {
		t.Error("a second Of built another graph")
	}
	other := g.Of(goes)
	if other == nil || other == first {
		t.Error("another body did not get a graph of its own")
	}
	if builds[stop] != 1 || builds[goes] != 1 {
		t.Errorf("builds before Freeze = %d and %d, want 1 each", builds[stop], builds[goes])
	}

	g.Freeze()
	if g.Of(stop) != first || g.Of(goes) != other {
		t.Error("after Freeze, Of does not return the graphs built before")
	}
	if builds[stop] != 1 || builds[goes] != 1 {
		t.Errorf("builds after Freeze = %d and %d, want still 1 each", builds[stop], builds[goes])
	}
	late1, late2 := g.Of(panics), g.Of(panics)
	if late1 == nil || late2 == nil {
		t.Fatal("after Freeze, a body not built before gets no graph")
	}
	if late1 == late2 || builds[panics] != 2 {
		t.Errorf("after Freeze, a body not built before: same graph %v, built %d times; want a new one each time, not kept", late1 == late2, builds[panics])
	}

	if g.Of(nil) != nil {
		t.Error("Of(nil) is not nil")
	}
	var none *cfgs.Graphs
	if none.Of(stop) != nil {
		t.Error("a nil Graphs returned a graph")
	}
	if builds[nil] != 0 {
		t.Error("the build hook was called for a nil body")
	}
}
