package contract_test

import (
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/suite"
)

// bodyCounter counts, per function body, how often something is done to it.
type bodyCounter struct {
	mu     sync.Mutex
	counts map[*ast.BlockStmt]int
}

func (c *bodyCounter) add(body *ast.BlockStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[body]++
}

// TestWorkOncePerBody runs every check over every test corpus and the
// examples, and counts per function body the CFGs built (cfg.New) and the
// transient-path solutions computed, for the checks and for the model's
// own inferences (classifiers, effect conditions): each at most once,
// however many checks and inferences look at the body. It also checks
// that the path solver converged on every body.
func TestWorkOncePerBody(t *testing.T) {
	t.Parallel()
	builds := &bodyCounter{counts: make(map[*ast.BlockStmt]int)}
	solves := &bodyCounter{counts: make(map[*ast.BlockStmt]int)}
	model := contract.New(contract.DefaultConfig(), contract.OnBuild(builds.add), contract.OnSolve(solves.add))
	checks := suite.Checks(model)
	// Without the meta check, which releases each package's model when it
	// is done (Model.Release): the test reads the models afterwards.
	roots := append([]*analysis.Analyzer{model}, checks...)
	var models []*contract.Model
	analyze := func(t *testing.T, cfg *packages.Config, patterns ...string) {
		cfg.Mode = packages.LoadAllSyntax
		pkgs, err := packages.Load(cfg, patterns...)
		if err != nil {
			t.Fatal(err)
		}
		graph, err := checker.Analyze(roots, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for act := range graph.All() {
			if m, ok := act.Result.(*contract.Model); ok {
				models = append(models, m)
			}
		}
	}

	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(testdata, "src"))
	if err != nil {
		t.Fatal(err)
	}
	var corpus []string
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(e.Name(), ".") { // every tree but the stubbed libraries
			corpus = append(corpus, e.Name()+"/...")
		}
	}
	analyze(t, &packages.Config{
		Dir: testdata,
		Env: append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
	}, corpus...)
	analyze(t, &packages.Config{Dir: filepath.Join("..", "..")}, "./examples/...")

	if len(builds.counts) < 200 || len(solves.counts) < 50 {
		t.Fatalf("only %d bodies got a CFG and %d a path solution: the corpus did not load", len(builds.counts), len(solves.counts))
	}
	for body, n := range builds.counts {
		if n > 1 {
			t.Errorf("body at %d: cfg.New called %d times", body.Pos(), n)
		}
	}
	for body, n := range solves.counts {
		if n > 1 {
			t.Errorf("body at %d: transient paths solved %d times", body.Pos(), n)
		}
	}
	diverged, calls := 0, 0
	for _, m := range models {
		diverged += len(m.Paths().Diverged())
		misses, n := contract.DLQFilterMisses(m)
		calls += n
		for _, call := range misses {
			t.Errorf("call at %d: a DLQ write that the test by name skips", call.Pos())
		}
	}
	if calls < 1000 {
		t.Errorf("the DLQ name filter was tried on %d calls only", calls)
	}
	if diverged != 0 {
		t.Errorf("the path solver did not converge on %d bodies", diverged)
	}
	t.Logf("%d bodies with a CFG, %d with transient paths, %d packages", len(builds.counts), len(solves.counts), len(models))
}
