package driver_test

import (
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/suite"
)

// BenchmarkAgainstVet runs retrylint's checks and, as the baseline measured
// in the same run, go vet's printf and errorsas passes, over the same
// loaded packages: the nats.go client with its jetstream package (real
// consumer-side code) and the example service. It reports the time ratio
// (retrylint/baseline) and the allocation ratio, which stay meaningful on a
// noisy machine where absolute times do not.
//
//	go test ./internal/driver -run '^$' -bench AgainstVet -benchtime 5x
func BenchmarkAgainstVet(b *testing.B) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "../.."}
	pkgs, err := packages.Load(cfg, "github.com/nats-io/nats.go", "github.com/nats-io/nats.go/jetstream", "./examples/...", "./runtime/...")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("packages failed to load")
	}
	measure := func(analyzers []*analysis.Analyzer) (time.Duration, uint64) {
		var before, after runtimeMem
		before.read()
		start := time.Now()
		if _, err := checker.Analyze(analyzers, pkgs, nil); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		after.read()
		return d, after.alloc - before.alloc
	}
	var lintTime, baseTime time.Duration
	var lintAlloc, baseAlloc uint64
	for b.Loop() {
		d, a := measure([]*analysis.Analyzer{printf.Analyzer, errorsas.Analyzer})
		baseTime, baseAlloc = baseTime+d, baseAlloc+a
		d, a = measure(suite.Default())
		lintTime, lintAlloc = lintTime+d, lintAlloc+a
	}
	b.ReportMetric(float64(lintTime)/float64(baseTime), "time-ratio")
	b.ReportMetric(float64(lintAlloc)/float64(baseAlloc), "alloc-ratio")
}
