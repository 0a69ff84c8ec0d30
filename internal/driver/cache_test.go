package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// cacheModule writes a one-package module and changes to it.
func cacheModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod": "module cachedemo\n\ngo 1.26\n",
		"a.go":   "package cachedemo\n\nfunc A() int { return 1 }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return dir
}

// TestDiskCacheCorruption: an entry that does not check out is ignored.
func TestDiskCacheCorruption(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c := newDiskCache("pkgs")
	key := "0123abcd"
	c.put(key, &pkgEntry{ID: "p", Diags: []diag{{Analyzer: "barenak", Message: "finding"}}})
	c.flush()
	if e := new(pkgEntry); !c.get(key, e) || e.ID != "p" || len(e.Diags) != 1 || e.Diags[0].Message != "finding" {
		t.Fatalf("round trip: %+v", e)
	}
	path := filepath.Join(c.dir, key)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(data, []byte(`"finding"`), []byte(`"findinG"`), 1)
	for name, content := range map[string][]byte{"tampered": tampered, "truncated": data[:len(data)/2], "empty": nil} {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if e := new(pkgEntry); c.get(key, e) {
			t.Errorf("%s entry used: %+v", name, e)
		}
	}
}

// TestDiskCacheStaged: a staged entry is under its key once committed,
// and nowhere once discarded; until then it is in a temporary file only,
// which is what a run that ends before committing leaves.
func TestDiskCacheStaged(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c := newDiskCache("pkgs")
	kept, dropped, left := c.stage("kept"), c.stage("dropped"), c.stage("left")
	c.commit(kept, "k1")
	c.discard(dropped)
	c.flush()
	var v string
	if !c.get("k1", &v) || v != "kept" {
		t.Errorf("committed entry: %q", v)
	}
	names, err := filepath.Glob(filepath.Join(c.dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || !slices.Contains(names, filepath.Join(c.dir, "k1")) || !slices.Contains(names, left.tmp) {
		t.Errorf("files %v, want k1 and the uncommitted entry's temporary file", names)
	}
}

// TestCachePrune: prune drops the entries neither written nor read for
// cacheMaxAge, and keeps those read since.
func TestCachePrune(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c := newDiskCache("pkgs")
	old := time.Now().Add(-cacheMaxAge - time.Hour)
	for _, key := range []string{"read", "unread"} {
		c.put(key, key)
		c.flush()
		if err := os.Chtimes(filepath.Join(c.dir, key), old, old); err != nil {
			t.Fatal(err)
		}
	}
	// Entries a killed run staged and never committed, and one a run is
	// staging now.
	left, fresh := c.stage("left"), c.stage("fresh")
	c.flush()
	if err := os.Chtimes(left.tmp, time.Now().Add(-pruneEvery-time.Hour), time.Now().Add(-pruneEvery-time.Hour)); err != nil {
		t.Fatal(err)
	}
	var v string
	if !c.get("read", &v) || v != "read" {
		t.Fatalf("get: %q", v)
	}
	c.prune()
	if !c.get("read", &v) {
		t.Error("an entry read since was pruned")
	}
	if c.get("unread", &v) {
		t.Error("an entry neither written nor read for cacheMaxAge was kept")
	}
	if _, err := os.Stat(left.tmp); err == nil {
		t.Error("a staged entry never committed was kept for more than pruneEvery")
	}
	if _, err := os.Stat(fresh.tmp); err != nil {
		t.Error("an entry being staged was pruned")
	}

	// The next pruneEvery, runs leave the directory alone: reading it
	// is a cost per entry.
	c.put("later", "later")
	c.flush()
	if err := os.Chtimes(filepath.Join(c.dir, "later"), old, old); err != nil {
		t.Fatal(err)
	}
	c.prune()
	if !c.get("later", &v) {
		t.Error("pruned twice within pruneEvery")
	}
	if err := os.Chtimes(filepath.Join(c.dir, "later"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(c.dir, "pruned"), old, old); err != nil {
		t.Fatal(err)
	}
	c.prune()
	if c.get("later", &v) {
		t.Error("not pruned after pruneEvery")
	}
}

// TestPackageCacheUnstable: a package one of whose files, or a
// dependency's, was written after the run began (or so shortly before
// that the file system's clock cannot tell) is not stored: its results
// may be of the content before. A changed setup file stores nothing.
func TestPackageCacheUnstable(t *testing.T) {
	dir := cacheModule(t)
	if err := os.MkdirAll(filepath.Join(dir, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string, age time.Duration) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		then := time.Now().Add(-age)
		if err := os.Chtimes(filepath.Join(dir, name), then, then); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package cachedemo\n\nfunc A() int { return 1 }\n", time.Minute)
	write("b/b.go", "package b\n\nimport \"cachedemo\"\n\nvar B = cachedemo.A()\n", time.Minute)
	write("p.json", "{}", time.Minute)
	pkgs, err := packages.Load(&packages.Config{Mode: listMode}, "./...")
	if err != nil || len(pkgs) != 2 {
		t.Fatalf("load: %d packages, %v", len(pkgs), err)
	}
	results := []pkgResult{{ID: "cachedemo"}, {ID: "cachedemo/b"}}
	for _, mode := range []string{"store", "staged"} {
		t.Run(mode, func(t *testing.T) { testUnstable(t, pkgs, results, write, mode) })
	}
}

// testUnstable is TestPackageCacheUnstable's cases, stored after the run
// (store) or staged during it (stager).
func testUnstable(t *testing.T, pkgs []*packages.Package, results []pkgResult, write func(name, content string, age time.Duration), mode string) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// run hashes the files as a run beginning now does, lets edit change
	// them, stores, and returns which packages were stored.
	run := func(edit func()) []string {
		t.Helper()
		t.Setenv("XDG_CACHE_HOME", t.TempDir()) // what this run stored, alone
		r := &runner{cache: true, start: time.Now(), profiles: &profileFlag{set: true, files: []string{filepath.Join(dir, "p.json")}}}
		c := r.newPkgCache(nil)
		if c == nil {
			t.Fatal("no package cache")
		}
		keys, err := c.keys(pkgs)
		if err != nil {
			t.Fatal(err)
		}
		rkeys, err := c.resultKeys(pkgs, keys, nil) // where a run that looked them up now would find them
		if err != nil {
			t.Fatal(err)
		}
		if mode == "staged" {
			g := c.newStager()
			packages.Visit(pkgs, nil, func(p *packages.Package) {
				i := slices.IndexFunc(results, func(res pkgResult) bool { return res.ID == p.ID })
				g.done(p, &results[i], nil)
			})
			edit()
			g.commit(pkgs)
		} else {
			edit()
			c.store(pkgs, results, keys, nil)
		}
		if tmp, _ := filepath.Glob(filepath.Join(c.disk.dir, "tmp-*")); len(tmp) > 0 {
			t.Errorf("temporary files left: %v", tmp)
		}
		var stored []string
		for _, p := range pkgs {
			var e pkgEntry
			if c.disk.get(rkeys[p.ID].sum, &e) && e.ID == p.ID && e.Results {
				stored = append(stored, p.ID)
			}
		}
		return stored
	}
	// a.go is written after it was hashed: neither a nor b, which imports
	// it, may be stored; nor when it is written at once with its old size.
	if got := run(func() { write("a.go", "package cachedemo\n\nfunc A() int { return 3 }\n", 0) }); len(got) != 0 {
		t.Errorf("stored %v though a file they depend on changed during the run", got)
	}
	// Written a few milliseconds before the run began: within the margin
	// of the file system's clock, unstable too.
	write("a.go", "package cachedemo\n\nfunc A() int { return 4 }\n", 5*time.Millisecond)
	if got := run(func() {}); len(got) != 0 {
		t.Errorf("stored %v though a.go was written within the clock's margin", got)
	}
	// b/b.go changes: b is not stored, a is.
	write("a.go", "package cachedemo\n\nfunc A() int { return 5 }\n", time.Minute)
	if got := run(func() { write("b/b.go", "package b\n\nimport \"cachedemo\"\n\nvar B = cachedemo.A() + 1\n", 0) }); !slices.Equal(got, []string{"cachedemo"}) {
		t.Errorf("stored %v, want cachedemo alone", got)
	}
	// A profile file changes: nothing is stored.
	write("b/b.go", "package b\n\nimport \"cachedemo\"\n\nvar B = cachedemo.A() + 2\n", time.Minute)
	if got := run(func() { write("p.json", "{ }", 0) }); len(got) != 0 {
		t.Errorf("stored %v though a profile file changed during the run", got)
	}
	// Nothing changes: both are stored.
	write("p.json", "{}", time.Minute)
	if got := run(func() {}); !slices.Equal(got, []string{"cachedemo", "cachedemo/b"}) {
		t.Errorf("stored %v, want both", got)
	}
}

// TestSettled: a file stamped before the run began, by more than the file
// system clock's margin, is settled; one stamped within it, or later, is
// not; whole-second stamps get the margin of a two-second clock.
func TestSettled(t *testing.T) {
	start := time.Date(2026, 5, 1, 12, 0, 0, 500_000_000, time.UTC)
	for _, tc := range []struct {
		mtime time.Time
		want  bool
	}{
		{start.Add(-time.Second), true},
		{start.Add(-30 * time.Millisecond), true},
		{start.Add(-5 * time.Millisecond), false},
		{start.Add(time.Millisecond), false},
		{start.Add(-1500 * time.Millisecond).Truncate(time.Second), false}, // 1.5 s before, in whole seconds
		{start.Add(-3 * time.Second).Truncate(time.Second), true},
	} {
		if got := settled(tc.mtime, start); got != tc.want {
			t.Errorf("settled(%v, %v) = %v, want %v", tc.mtime, start, got, tc.want)
		}
	}
}

// TestAnalysisFlags: the output flags and their values are left out of
// the keys, whichever form they take; the others are kept in order.
func TestAnalysisFlags(t *testing.T) {
	got := analysisFlags([]string{"-C", "sub", "-json", "-format", "sarif", "-tags=a", "-cache=false", "-baseline", "b.json",
		"-c", "3", "-retrycontract.profiles", "p.json", "-fix", "-diff", "-test=false"})
	want := []string{"-tags=a", "-retrycontract.profiles", "p.json", "-test=false"}
	if !slices.Equal(got, want) {
		t.Errorf("analysisFlags = %q, want %q", got, want)
	}
}
