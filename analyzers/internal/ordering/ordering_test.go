package ordering_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checks"
	"github.com/retrylint/retrylint/analyzers/internal/ordering"
)

// kindFormats names each kind in the test checks' messages, with the
// settlement (%[1]s) and the DLQ write (%[2]s, which starts with a space);
// an unconfirmed write's why (%[4]s) and fix (%[5]s).
var kindFormats = [...]string{
	ordering.Before:         "Before: %[1]s,%[2]s",
	ordering.DeferredAfter:  "DeferredAfter: %[1]s,%[2]s",
	ordering.Spawned:        "Spawned: %[1]s,%[2]s",
	ordering.FailurePath:    "FailurePath: %[1]s,%[2]s",
	ordering.UncheckedWrite: "UncheckedWrite: %[1]s,%[2]s",
	ordering.Unconfirmed:    "Unconfirmed: %[1]s,%[2]s (%[4]s; %[5]s)",
}

// termSpec orders Terms, as termbeforedlq does.
var termSpec = &ordering.Spec{
	Settle: func(m *contract.Model, call *ast.CallExpr) (contract.SettleCall, bool) {
		return m.Settle().AsTerm(call)
	},
	Bodies:  func(m *contract.Model) []*ast.BlockStmt { return m.Paths().TermBodies() },
	Verb:    "Term",
	Formats: kindFormats,
}

// ackSpec orders Acks, a handler's `return nil` and deferred Acks, as
// dlqunchecked does.
var ackSpec = &ordering.Spec{
	Settle: func(m *contract.Model, call *ast.CallExpr) (contract.SettleCall, bool) { return m.Settle().AsAck(call) },
	Bodies: func(m *contract.Model) []*ast.BlockStmt {
		return slices.Concat(m.Paths().AckBodies(), m.Handlers().HandlerBodies())
	},
	Verb:           "Ack",
	HandlerReturns: true,
	DeferredAcks:   true,
	Formats:        kindFormats,
}

// newCheck returns a check that runs ordering over spec and, when
// candidates is set, also reports what ordering.Candidates returns at
// each return, rendered with spec.Message for a bus named "the bus", each
// message prefixed with "candidate ".
func newCheck(name string, spec *ordering.Spec, candidates bool) *analysis.Analyzer {
	return checks.New(contract.Analyzer, checks.Spec{
		Name:      name,
		DocSource: "// # Analyzer " + name + "\n//\n// " + name + ": ordering under test\n",
		Run: func(pass *analysis.Pass, m *contract.Model, at *token.Pos) {
			ordering.Run(pass, m, at, spec)
			if !candidates {
				return
			}
			for _, cands := range ordering.Candidates(pass, m, at, spec) {
				for _, c := range cands {
					msg := spec.Message(c.Kind, "returning nil (the bus then Acks the message)", c.Write.Name, c.Retry, c.Write.Unconfirmed, c.Write.ConfirmFix)
					pass.Report(analysis.Diagnostic{Pos: c.Return.Pos(), End: c.Return.End(), Message: "candidate " + msg})
				}
			}
		},
	})
}

var (
	termCheck = newCheck("orderingterm", termSpec, true) // Candidates: none without HandlerReturns
	ackCheck  = newCheck("orderingack", ackSpec, true)
)

// rawTermCheck runs ordering over termSpec on the contract model without
// checks.New's pass, which drops diagnostics in generated files itself: what
// it reports in a generated file, ordering did not skip.
var rawTermCheck = &analysis.Analyzer{
	Name:             "orderingraw",
	Doc:              "ordering over termSpec, reporting straight to the pass",
	Requires:         []*analysis.Analyzer{contract.Analyzer},
	RunDespiteErrors: true,
	Run: func(pass *analysis.Pass) (any, error) {
		var at token.Pos
		ordering.Run(pass, pass.ResultOf[contract.Analyzer].(*contract.Model), &at, termSpec)
		return nil, nil
	},
}

// preamble heads every case's package: a message interface, a DLQ
// writer held in a field named dlq, a helper that writes the DLQ, and a
// bus that Acks when the handler it runs returns nil.
const preamble = `package %s

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"os"
	"time"
)

var (
	_ = errors.New
	_ = fmt.Sprint
	_ = log.Print
	_ = os.Exit
)

type DeadLetterWriter interface {
	Write(ctx context.Context, subject string, data []byte) error
}

type CountingWriter interface {
	Write(ctx context.Context, data []byte) (int, error)
}

type Delivery interface {
	Ack() error
	Nak() error
	NakWithDelay(d time.Duration) error
	Term() error
	Data() []byte
	Subject() string
}

type C struct {
	dlq     DeadLetterWriter
	dlqN    CountingWriter
	logger  *slog.Logger
	lastErr error
}

func (c *C) publishDLQ(ctx context.Context, d Delivery) error {
	return c.dlq.Write(ctx, "orders.DLQ", d.Data())
}

func (c *C) apply(ctx context.Context, data []byte) error { return nil }

var (
	cond bool
	ch   chan int
	ctx  = context.Background()
)

// Subscribe Acks when the handler returns nil.
func Subscribe(d Delivery, h func(context.Context, Delivery) error) {
	if err := h(context.Background(), d); err != nil {
		d.Nak()
		return
	}
	d.Ack()
}

`

// orderingCase is a package (preamble then src) and what check reports in
// it: each finding as its message, " @ ", and the line of its position,
// trimmed and without comment, in position order.
type orderingCase struct {
	name  string
	check *analysis.Analyzer
	src   string
	want  []string
	// related adds to each finding its related locations, each as " | ",
	// its message, " @ " and its line.
	related bool
	// generated marks the case's file generated.
	generated bool
}

// runCases loads each case as a package of a GOPATH of its own, runs the
// test checks over them at once, and compares each case's findings.
func runCases(t *testing.T, cases []orderingCase) {
	t.Helper()
	gopath := t.TempDir()
	sources := make(map[string]string)
	var patterns []string
	for i, c := range cases {
		pkg := fmt.Sprintf("c%d", i)
		src := fmt.Sprintf(preamble, pkg) + c.src
		if c.generated {
			src = "// Code generated by hand. DO NOT EDIT.\n\n" + src
		}
		dir := filepath.Join(gopath, "src", pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, pkg+".go")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		sources[file] = src
		patterns = append(patterns, pkg)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  gopath,
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := make(map[string]*packages.Package)
	for _, p := range pkgs {
		byPath[p.PkgPath] = p
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{termCheck, ackCheck, rawTermCheck}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	lineAt := func(fset *token.FileSet, p token.Pos) string {
		pos := fset.Position(p)
		line := strings.Split(sources[pos.Filename], "\n")[pos.Line-1]
		line, _, _ = strings.Cut(line, "//")
		return strings.TrimSpace(line)
	}
	related := make(map[string]bool)
	for i, c := range cases {
		related[fmt.Sprintf("c%d", i)] = c.related
	}
	got := make(map[string][]string) // by package and check
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		diags := slices.Clone(act.Diagnostics)
		slices.SortStableFunc(diags, func(a, b analysis.Diagnostic) int { return int(a.Pos - b.Pos) })
		key := act.Package.PkgPath + " " + act.Analyzer.Name
		for _, d := range diags {
			f := d.Message + " @ " + lineAt(act.Package.Fset, d.Pos)
			if related[act.Package.PkgPath] {
				for _, r := range d.Related {
					f += " | " + r.Message + " @ " + lineAt(act.Package.Fset, r.Pos)
				}
			}
			got[key] = append(got[key], f)
		}
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pkg := fmt.Sprintf("c%d", i)
			p := byPath[pkg]
			if p == nil {
				t.Fatalf("package %s not loaded", pkg)
			}
			for _, e := range p.Errors {
				t.Errorf("%v", e)
			}
			g := got[pkg+" "+c.check.Name]
			if !slices.Equal(g, c.want) {
				t.Errorf("findings:\n\t%s\nwant:\n\t%s", strings.Join(g, "\n\t"), strings.Join(c.want, "\n\t"))
			}
		})
	}
}
