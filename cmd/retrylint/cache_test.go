package main_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPackageCache: after an edit, a run analyzes the edited package and
// the packages that depend on it (as go list tells them), replays the
// others, and prints what an uncached run prints, byte for byte, in every
// format; a corrupted entry is ignored and rewritten.
func TestPackageCache(t *testing.T) {
	t.Parallel()
	dir := foreignModule(t)
	for name, content := range map[string]string{
		// Test variants, and a package nothing else imports.
		"retry/retry_test.go": "package retry\n\nimport \"testing\"\n\nfunc TestBusy(t *testing.T) { _ = (&Busy{}).Error() }\n",
		"svc/svc_test.go":     "package svc_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/shop/svc\"\n)\n\nfunc TestService(t *testing.T) { _ = &svc.Service{} }\n",
		"other/other.go":      "package other\n\nfunc Other() int { return 1 }\n",
		// A producer, and a package that flattens its errors: its finding
		// needs stock's facts, and stands in its own file.
		"stock/stock.go": "package stock\n\nimport (\n\t\"time\"\n\n\t\"example.com/shop/retry\"\n)\n\n" +
			"func Reserve(sku string) error {\n\tif sku == \"\" {\n\t\treturn &retry.Busy{D: time.Second}\n\t}\n\treturn nil\n}\n",
		"audit/audit.go": "package audit\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/shop/stock\"\n)\n\n" +
			"func Record(sku string) error {\n\tif err := stock.Reserve(sku); err != nil {\n\t\treturn fmt.Errorf(\"audit %s: %v\", sku, err)\n\t}\n\treturn nil\n}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, dir)
	cacheDir := t.TempDir()
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	env := append([]string{"XDG_CACHE_HOME=" + cacheDir, "RETRYLINT_CACHE_STATS=" + statsFile}, foreignEnv...)

	run := func(args ...string) (result, cacheStats) {
		t.Helper()
		return runCacheStats(t, dir, env, statsFile, append(args, "./...")...)
	}
	// uncached holds the output of uncached runs by flags, to compare
	// cached runs with: the last, when the sources changed only in
	// comments at the end of files since. They read the sources alone
	// (not the cache; their stats go nowhere), so reference starts them
	// beside the cached runs; every edit waits for them first.
	uncached := make(map[string]func() result)
	uncachedEnv := withoutStats(env)
	reference := func(flags ...string) func() result {
		t.Helper()
		key := strings.Join(flags, " ")
		if uncached[key] == nil {
			uncached[key] = startEnv(t, dir, uncachedEnv, append(append([]string{"-cache=false"}, flags...), "./...")...)
		}
		return uncached[key]
	}
	quiesce := func() {
		t.Helper()
		for _, wait := range uncached {
			wait()
		}
	}
	// The steps whose packages must be analyzed against export data.
	fromExport := map[string]bool{"audit edited": true, "stock edited": true}
	// check runs retrylint with flags and compares its output with an
	// uncached run's.
	check := func(step string, wantAnalyzed []string, flags ...string) {
		t.Helper()
		wait := reference(flags...)
		got, stats := run(flags...)
		analyzed := stats.Analyzed
		// Runs that analyze only some packages do so against export data,
		// with the facts the earlier runs stored, unless a finding points
		// into a dependency (whose export data has no columns) or the
		// packages analyzed are most of the program's source.
		whole := step == "first run" || step == "an analyzer off" || step == "entries corrupted"
		if whole && stats.FromExport || fromExport[step] && !stats.FromExport {
			t.Errorf("%s %v: analyzed against export data: %v", step, flags, stats.FromExport)
		}
		if want := wait(); got != want {
			t.Errorf("%s %v: cached run printed\n%+v\nuncached:\n%+v", step, flags, got, want)
		}
		if got.code != 3 {
			t.Errorf("%s %v: exit status %d, want 3", step, flags, got.code)
		}
		if !slices.Equal(analyzed, wantAnalyzed) {
			t.Errorf("%s %v: analyzed\n\t%s\nwant\n\t%s", step, flags, strings.Join(analyzed, "\n\t"), strings.Join(wantAnalyzed, "\n\t"))
		}
	}
	edit := func(file string) {
		t.Helper()
		quiesce()
		f, err := os.OpenFile(filepath.Join(dir, file), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer settle(t, filepath.Join(dir, file))
		defer f.Close()
		if _, err := f.WriteString("\n// edited\n"); err != nil {
			t.Fatal(err)
		}
	}

	// An edit that appends a comment leaves every package's interface as
	// it was: the packages that compile the file are analyzed, their
	// dependents replayed (early cutoff).
	all := dependents(t, dir, env, "")
	check("first run", all)
	edit("audit/audit.go")
	check("audit edited", owners(t, dir, env, "audit/audit.go"))
	edit("stock/stock.go")
	check("stock edited", owners(t, dir, env, "stock/stock.go"))
	edit("retry/retry.go")
	check("retry edited", owners(t, dir, env, "retry/retry.go"))
	edit("cmd/app/main.go")
	check("main edited", owners(t, dir, env, "cmd/app/main.go"))
	edit("other/other.go")
	check("other edited", owners(t, dir, env, "other/other.go"))

	// An edit within a line of a body that changes a fact (Reserve no
	// longer returns a retryable error): audit, whose finding came from
	// that fact, is analyzed again, and its finding goes.
	before, _ := run()
	quiesce()
	replaceIn(t, filepath.Join(dir, "stock", "stock.go"), "return &retry.Busy{D: time.Second}", "_ = &retry.Busy{D: time.Second}")
	clear(uncached)
	check("a fact of stock changed", dependents(t, dir, env, "example.com/shop/stock"))
	if after, _ := run(); after.stdout == before.stdout {
		t.Errorf("a fact of stock changed: the output did not change:\n%s", after.stdout)
	}
	quiesce()
	replaceIn(t, filepath.Join(dir, "stock", "stock.go"), "_ = &retry.Busy{D: time.Second}", "return &retry.Busy{D: time.Second}")
	clear(uncached)
	check("the fact restored", nil) // stock as before: every entry is there

	// A body grows by a line: the declarations after it move, and with
	// them the places in svc that cmd/app's findings point to.
	quiesce()
	replaceIn(t, filepath.Join(dir, "svc", "svc.go"), "error { return &retry.Busy{D: time.Second} }", "error {\n\treturn &retry.Busy{D: time.Second}\n}")
	clear(uncached)
	check("a body of svc grew", dependents(t, dir, env, "example.com/shop/svc"))

	// An edit that moves findings: the findings of svc are reported while
	// analyzing cmd/app, which depends on it. Every declaration of svc.go
	// moves: its dependents are analyzed.
	svcFile := filepath.Join(dir, "svc", "svc.go")
	data, err := os.ReadFile(svcFile)
	if err != nil {
		t.Fatal(err)
	}
	quiesce()
	if err := os.WriteFile(svcFile, append([]byte("// Package svc.\n\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	settle(t, svcFile)
	clear(uncached)
	formats := []string{"-json", "-format=sarif", "-format=github"}
	for _, flag := range append(formats, "-ackretryable=false") {
		reference(flag)
	}
	check("svc edited", dependents(t, dir, env, "example.com/shop/svc"))

	// Output flags do not change a package's results: they share entries.
	for _, format := range formats {
		edit("svc/decode.go")
		check("decode edited", owners(t, dir, env, "svc/decode.go"), format)
	}

	// Flags that change what is analyzed have entries of their own.
	check("an analyzer off", all, "-ackretryable=false")

	// Corrupted entries are ignored: everything is analyzed, and the
	// entries rewritten serve the next run.
	entries, err := filepath.Glob(filepath.Join(cacheDir, "retrylint", "pkgs", "*"))
	if err != nil || len(entries) < len(all) {
		t.Fatalf("%d package entries, %v; want at least %d", len(entries), err, len(all))
	}
	for _, e := range entries {
		if !strings.HasPrefix(filepath.Base(e), "family-") {
			if err := os.WriteFile(e, []byte("garbage"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	edit("other/other.go")
	check("entries corrupted", all)
	edit("other/other.go")
	check("entries rewritten", owners(t, dir, env, "other/other.go"))
}

// settle backdates the modification time of the files under path by a
// minute, as if edited a while before the next run: the package cache
// stores no result of a file written so shortly before a run that the
// file system's clock cannot tell it from a write during the run.
func settle(t *testing.T, path string) {
	t.Helper()
	then := time.Now().Add(-time.Minute)
	err := filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Type()&os.ModeSymlink != 0 {
			return err
		}
		return os.Chtimes(p, then, then)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// dependents asks go list, in dir with env added to the test's
// environment, for the root packages of patterns (./... if none; with
// their test variants) that are pkg or depend on it, sorted; all of them
// when pkg is empty.
func dependents(t *testing.T, dir string, env []string, pkg string, patterns ...string) []string {
	t.Helper()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cmd := exec.Command("go", append([]string{"list", "-test", "-f", "{{.ImportPath}}{{range .Deps}}\t{{.}}{{end}}"}, patterns...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	base := func(id string) string { b, _, _ := strings.Cut(id, " ["); return b }
	var ids []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "\t")
		if pkg == "" || slices.ContainsFunc(fields, func(id string) bool { return base(id) == pkg }) {
			ids = append(ids, fields[0])
		}
	}
	slices.Sort(ids)
	return ids
}

// owners asks go list, in dir with env added to the test's environment,
// for the root packages of patterns (./... if none; with their test
// variants) that compile file (relative to dir), sorted: the packages an
// edit of file that leaves every package's interface as it was analyzes
// (early cutoff; internal/driver/cutoff.go).
func owners(t *testing.T, dir string, env []string, file string, patterns ...string) []string {
	t.Helper()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cmd := exec.Command("go", append([]string{"list", "-test", "-compiled", "-f", "{{.ImportPath}}{{range .CompiledGoFiles}}\t{{$.Dir}}/{{.}}{{end}}"}, patterns...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	want := filepath.Join(dir, file)
	if resolved, err := filepath.EvalSymlinks(want); err == nil {
		want = resolved
	}
	var ids []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "\t")
		if slices.ContainsFunc(fields[1:], func(name string) bool {
			resolved, err := filepath.EvalSymlinks(name)
			return err == nil && resolved == want
		}) {
			ids = append(ids, fields[0])
		}
	}
	slices.Sort(ids)
	return ids
}

// runStats runs retrylint in dir with env (which sets
// RETRYLINT_CACHE_STATS=statsFile) and args, and returns its result and
// the root packages it analyzed, as it writes them to statsFile (nil when
// it replayed the whole run).
func runStats(t *testing.T, dir string, env []string, statsFile string, args ...string) (result, []string) {
	t.Helper()
	r, stats := runCacheStats(t, dir, env, statsFile, args...)
	return r, stats.Analyzed
}

// cacheStats is what a run with RETRYLINT_CACHE_STATS writes.
type cacheStats struct {
	Analyzed   []string
	FromExport bool // the packages analyzed were type-checked against export data, with cached facts
	Streamed   bool // analyzed by a streamed run
	Silent     int  // how many dependencies the streamed run found silent
	// ListingReused: the run reused the stored listing, not go list's
	ListingReused bool
}

// runCacheStats runs retrylint and returns what it printed and its cache
// statistics (zero when it wrote none).
func runCacheStats(t *testing.T, dir string, env []string, statsFile string, args ...string) (result, cacheStats) {
	t.Helper()
	os.Remove(statsFile)
	r := runEnv(t, dir, env, args...)
	var stats cacheStats
	data, err := os.ReadFile(statsFile)
	if errors.Is(err, os.ErrNotExist) {
		return r, stats
	}
	if err != nil || json.Unmarshal(data, &stats) != nil {
		t.Fatalf("stats: %v %s", err, data)
	}
	return r, stats
}

// TestPackageCacheCorpus: over the analyzers' corpus (in GOPATH layout, as
// analysistest reads it), a run after an edit prints what an uncached run
// prints and analyzes the edited package and its dependents only. The
// corpus's deliberately broken packages are left out: a run with load or
// type errors is analyzed whole.
func TestPackageCacheCorpus(t *testing.T) {
	t.Parallel()
	dir, env := corpusCopy(t)
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	env = append(env, "RETRYLINT_CACHE_STATS="+statsFile)
	patterns := cleanCorpus(t, dir, env)

	uncached, _ := runStats(t, dir, env, statsFile, append([]string{"-cache=false"}, patterns...)...)
	if uncached.code != 3 || strings.Count(uncached.stdout, "\n") < 50 {
		t.Fatalf("uncached run: exit status %d, %d lines, stderr %q", uncached.code, strings.Count(uncached.stdout, "\n"), uncached.stderr)
	}
	// Each edit adds a comment: at the end of a file (no declaration
	// moves: the edited package alone is analyzed), or at its top (every
	// declaration moves: its dependents too).
	for i, edited := range []string{"", "ackretryable/crosspkg/upstream", "ackretryable/crosspkg/downstream", "^ackretryable/crosspkg/upstream"} {
		top := strings.HasPrefix(edited, "^")
		edited = strings.TrimPrefix(edited, "^")
		want := dependents(t, dir, env, edited, patterns...)
		if edited != "" {
			files, err := filepath.Glob(filepath.Join(dir, edited, "*.go"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no Go file in %s: %v", edited, err)
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, "\n// edited\n"...)
			if top {
				data = append([]byte("// edited\n"), data...)
			}
			if err := os.WriteFile(files[0], data, 0o644); err != nil {
				t.Fatal(err)
			}
			settle(t, files[0])
			if !top {
				rel, _ := filepath.Rel(dir, files[0])
				want = owners(t, dir, env, rel, patterns...)
			}
		}
		got, stats := runCacheStats(t, dir, env, statsFile, patterns...)
		analyzed := stats.Analyzed
		if stats.FromExport != (edited != "") {
			t.Errorf("run %d (%q edited): analyzed against export data: %v", i, edited, stats.FromExport)
		}
		if got != uncached {
			t.Errorf("run %d (%q edited): cached output\n%+v\nuncached:\n%+v", i, edited, got, uncached)
		}
		if !slices.Equal(analyzed, want) {
			t.Errorf("run %d (%q edited): analyzed %d packages\n\t%s\nwant %d\n\t%s", i, edited, len(analyzed), strings.Join(analyzed, "\n\t"), len(want), strings.Join(want, "\n\t"))
		}
	}
}

// replaceIn replaces old with new in the file at path, in place (its
// directory does not change), and settles it.
func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("%s: %v, or no %q in it", path, err, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	settle(t, path)
}
