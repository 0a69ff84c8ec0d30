package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// corpusCopy copies the analyzers' corpus (GOPATH layout) to a temporary
// GOPATH and returns its src directory and the environment to run in.
func corpusCopy(t *testing.T) (dir string, env []string) {
	t.Helper()
	gopath := t.TempDir()
	if err := os.CopyFS(gopath, os.DirFS(filepath.Join(root, "testdata"))); err != nil {
		t.Fatal(err)
	}
	settle(t, gopath)
	return filepath.Join(gopath, "src"), []string{"GOPATH=" + gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off", "XDG_CACHE_HOME=" + t.TempDir()}
}

// corpusPackages lists the corpus's packages that load and type-check
// without error (the compiler says so, from export data), with their
// imports, by path; test variants left out.
func corpusPackages(t *testing.T, dir string, env []string) map[string][]string {
	t.Helper()
	mode := packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedTypes
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: dir, Tests: true, Env: append(os.Environ(), env...)}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	broken := make(map[string]bool) // by path: with an error of its own or in a dependency
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		bad := len(p.Errors) > 0
		for _, imp := range p.Imports {
			bad = bad || broken[imp.PkgPath]
		}
		broken[p.PkgPath] = broken[p.PkgPath] || bad
	})
	out := make(map[string][]string)
	for _, p := range pkgs {
		if broken[p.PkgPath] || strings.HasSuffix(p.PkgPath, ".test") || strings.HasSuffix(p.PkgPath, "_test") || p.ID != p.PkgPath {
			continue
		}
		var imps []string
		for path := range p.Imports {
			imps = append(imps, path)
		}
		out[p.PkgPath] = imps
	}
	return out
}

// cleanCorpus returns the paths of corpusPackages, sorted.
func cleanCorpus(t *testing.T, dir string, env []string) []string {
	t.Helper()
	var clean []string
	for path := range corpusPackages(t, dir, env) {
		clean = append(clean, path)
	}
	slices.Sort(clean)
	if len(clean) < 40 {
		t.Fatalf("%d clean packages in the corpus, want at least 40", len(clean))
	}
	return clean
}

// formats are the output formats a streamed run must print alike.
var formats = [][]string{nil, {"-json"}, {"-format=sarif"}, {"-format=github"}}

// TestStreamedIsExact: a streamed run (the dependencies that cannot
// export a fact type-checked without their bodies and not analyzed, each
// package's syntax dropped once analyzed) prints what the run through
// go/packages and the checker prints, in every format: over the corpus's
// clean packages, whose dependencies from the standard library are
// mostly silent; over two packages with type errors, which it reports as
// go/packages does; and over the whole corpus, whose syntax errors end
// the streamed run.
func TestStreamedIsExact(t *testing.T) {
	t.Parallel()
	dir, env := corpusCopy(t)
	clean := cleanCorpus(t, dir, env)
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	checkerEnv := append(slices.Clip(env), "RETRYLINT_LOADER=packages") // no stats: it runs beside the streamed run
	env = append(env, "RETRYLINT_CACHE_STATS="+statsFile)
	for _, tc := range []struct {
		patterns []string
		streamed bool
	}{
		{clean, true},
		{[]string{"./ackpermanent/broken", "./ackretryable/handlers/svc"}, true}, // type errors, reported alike
		{[]string{"./..."}, false},
	} {
		for _, format := range formats {
			args := slices.Concat([]string{"-cache=false"}, format, tc.patterns)
			want := startEnv(t, dir, checkerEnv, args...)
			got, stats := runCacheStats(t, dir, env, statsFile, args...)
			name := fmt.Sprintf("%d patterns, %v", len(tc.patterns), format)
			if stats.Streamed != tc.streamed {
				t.Errorf("%s: streamed %v, want %v", name, stats.Streamed, tc.streamed)
			}
			if tc.streamed && stats.Silent < 50 {
				t.Errorf("%s: %d silent packages, want at least 50", name, stats.Silent)
			}
			if w := want(); got != w {
				t.Errorf("%s: streamed run printed\n%+v\nthe checker's:\n%+v", name, got, w)
			}
		}
	}
}

// importStd writes a package under dir that imports every package of the
// standard library that a program may import, and returns its path.
func importStd(t *testing.T, dir string, env []string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "std")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list std: %v", err)
	}
	var src strings.Builder
	src.WriteString("// Package stdall imports the standard library.\npackage stdall\n\nimport (\n")
	for path := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		if !strings.Contains(path, "internal") && !strings.HasPrefix(path, "vendor/") && !strings.HasPrefix(path, "cmd/") {
			fmt.Fprintf(&src, "\t_ %q\n", path)
		}
	}
	src.WriteString(")\n")
	if err := os.MkdirAll(filepath.Join(dir, "stdall"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stdall", "stdall.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return "stdall"
}

// TestSilenceIsSound judges Silence on the corpus's own packages and the
// standard library: every
// package a root imports may be silent (RETRYLINT_SILENT_ANY), and every
// silent one is analyzed too (RETRYLINT_VERIFY_SILENT), which ends the
// streamed run if it exports a fact Silence did not give it. The roots
// are the packages no other imports, so that the rest are dependencies,
// and one that imports the whole standard library; the output must still
// be the checker's.
func TestSilenceIsSound(t *testing.T) {
	t.Parallel()
	dir, env := corpusCopy(t)
	pkgs := corpusPackages(t, dir, env)
	imported := make(map[string]bool)
	for _, imps := range pkgs {
		for _, imp := range imps {
			imported[imp] = true
		}
	}
	var roots []string
	for path := range pkgs {
		if !imported[path] {
			roots = append(roots, path)
		}
	}
	slices.Sort(roots)
	if len(roots) < 20 || len(roots) > len(pkgs)-10 {
		t.Fatalf("%d roots of %d packages", len(roots), len(pkgs))
	}
	roots = append(roots, importStd(t, dir, env))
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	args := append([]string{"-cache=false"}, roots...)
	want := startEnv(t, dir, append(slices.Clip(env), "RETRYLINT_LOADER=packages"), args...) // no stats: it runs beside the streamed run
	env = append(env, "RETRYLINT_CACHE_STATS="+statsFile)
	got, stats := runCacheStats(t, dir, append(slices.Clip(env), "RETRYLINT_SILENT_ANY=1", "RETRYLINT_VERIFY_SILENT=1", "RETRYLINT_DEBUG_INCREMENTAL=1"), statsFile, args...)
	if !stats.Streamed {
		t.Fatalf("the streamed run was abandoned:\n%s", got.stderr)
	}
	if stats.Silent < 300 {
		t.Errorf("%d silent packages, want at least 300", stats.Silent)
	}
	w := want()
	got.stderr = w.stderr // the debug lines
	if got != w {
		t.Errorf("streamed run printed\n%+v\nthe checker's:\n%+v", got, w)
	}
	if w.code != 3 {
		t.Errorf("exit status %d, want 3: the roots have findings", w.code)
	}
}
