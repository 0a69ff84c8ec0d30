// Command heapprofile runs retrylint's analyzers (or only the floor's
// do-nothing fact analyzer, with -floor) over packages the way the command
// line does, then writes a heap profile while every result is still held:
// what the analysis keeps alive, by allocation site. Read it with
// go tool pprof -sample_index=inuse_space -top.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"maps"
	"os"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/suite"
)

type nothing struct{}

func (*nothing) AFact() {}

var floorAnalyzer = &analysis.Analyzer{
	Name:       "floor",
	Doc:        "declares a fact type and does nothing",
	FactTypes:  []analysis.Fact{new(nothing)},
	ResultType: reflect.TypeFor[*nothing](),
	Run:        func(*analysis.Pass) (any, error) { return (*nothing)(nil), nil },
}

func main() {
	out := flag.String("o", "heap.pprof", "heap profile to write")
	floor := flag.Bool("floor", false, "run the do-nothing fact analyzer instead of retrylint")
	cpu := flag.String("cpu", "", "also write a CPU profile of the analysis to this file")
	tests := flag.Bool("test", true, "also analyze test packages, as the command line does")
	repeat := flag.Int("repeat", 1, "run the analysis this many times (with -timing: report each action's fastest run)")
	timing := flag.Duration("timing", 0, "print the analysis actions that took at least this long, slowest first")
	byAnalyzer := flag.Bool("byanalyzer", false, "print each analyzer's actions and their summed time (each action's fastest run)")
	flag.Parse()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Tests: *tests}, flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	roots := suite.Roots()
	if *floor {
		roots = []*analysis.Analyzer{floorAnalyzer}
	}
	if *cpu != "" {
		f, err := os.Create(*cpu)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	// The shortest of the runs' times per action: the analysis of one
	// package, with the noise of the machine and the collector left out
	// as far as repeating can.
	fastest := make(map[string]time.Duration)
	var graph *checker.Graph
	for range *repeat {
		graph, err = checker.Analyze(roots, pkgs, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for act := range graph.All() {
			key := fmt.Sprintf("%-16s %s", act.Analyzer.Name, act.Package)
			if d, ok := fastest[key]; !ok || act.Duration < d {
				fastest[key] = act.Duration
			}
		}
	}
	pprof.StopCPUProfile()
	if *timing > 0 {
		var keys []string
		for key, d := range fastest {
			if d >= *timing {
				keys = append(keys, key)
			}
		}
		slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(fastest[b], fastest[a]) })
		for _, key := range keys {
			fmt.Printf("%8.1f ms  %s\n", float64(fastest[key].Microseconds())/1000, key)
		}
	}
	if *byAnalyzer {
		sums, counts := make(map[string]time.Duration), make(map[string]int)
		for key, d := range fastest {
			name, _, _ := strings.Cut(key, " ")
			sums[name] += d
			counts[name]++
		}
		for _, name := range slices.Sorted(maps.Keys(sums)) {
			fmt.Printf("%-16s %4d actions %8.1f ms\n", name, counts[name], float64(sums[name].Microseconds())/1000)
		}
	}
	if os.Getenv("HEAPPROFILE_FACTS") != "" {
		counts := make(map[string]int)
		for act := range graph.All() {
			for _, f := range act.AllObjectFacts() {
				if f.Object.Pkg() == act.Package.Types {
					counts[fmt.Sprintf("%s %T", act.Analyzer.Name, f.Fact)]++
				}
			}
		}
		fmt.Println(counts)
	}
	runtime.GC()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	f.Close()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Printf("heap in use after analysis: %d MiB (%d packages)\n", m.HeapInuse>>20, len(pkgs))
	runtime.KeepAlive(graph)
}
