package driver

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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

// TestRunCacheReplays: a second identical run replays the first's output
// and status without analyzing; an edited source, other arguments or
// -cache=false analyze anew; a failed run is not kept.
func TestRunCacheReplays(t *testing.T) {
	dir := cacheModule(t)
	analyses := 0
	run := func(args []string, cache bool, code int) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		r := &runner{progname: "retrylint", stdout: &stdout, stderr: &stderr, cache: cache, tests: true}
		got := r.cached(args, func() int {
			analyses++
			fmt.Fprintf(r.stdout, "finding %d\n", analyses)
			fmt.Fprintf(r.stderr, "notice %d\n", analyses)
			return code
		})
		if got != code {
			t.Fatalf("status %d, want %d", got, code)
		}
		return stdout.String(), stderr.String()
	}
	out1, err1 := run([]string{"./..."}, true, ExitFindings)
	out2, err2 := run([]string{"./..."}, true, ExitFindings)
	if analyses != 1 || out2 != out1 || err2 != err1 {
		t.Fatalf("second run: %d analyses, output %q %q, want 1 and the first run's %q %q", analyses, out2, err2, out1, err1)
	}
	if run([]string{"-json", "./..."}, true, ExitFindings); analyses != 2 {
		t.Errorf("other arguments: %d analyses, want 2", analyses)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package cachedemo\n\nfunc A() int { return 2 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := run([]string{"./..."}, true, ExitFindings); analyses != 3 || out != "finding 3\n" {
		t.Errorf("edited source: %d analyses, output %q", analyses, out)
	}
	if run([]string{"./..."}, false, ExitFindings); analyses != 4 {
		t.Errorf("-cache=false: %d analyses, want 4", analyses)
	}
	run([]string{"-tags=x", "./..."}, true, ExitFailure)
	run([]string{"-tags=x", "./..."}, true, ExitFailure)
	if analyses != 6 {
		t.Errorf("failed runs: %d analyses, want 6 (a failure is not kept)", analyses)
	}
	// A package a pattern names explicitly may live in testdata.
	if err := os.MkdirAll(filepath.Join(dir, "testdata", "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{"package p\n", "package p\n\nfunc F() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, "testdata", "p", "p.go"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if run([]string{"./testdata/p"}, true, ExitFindings); analyses != 7+i {
			t.Errorf("testdata package, version %d: %d analyses, want %d", i+1, analyses, 7+i)
		}
	}
}

// TestRunCacheCorruption: an entry that does not check out is ignored (the
// run analyzes) and rewritten.
func TestRunCacheCorruption(t *testing.T) {
	cacheModule(t)
	c := newRunCache()
	key := "0123abcd"
	c.put(key, &cacheEntry{Code: ExitFindings, Stdout: []byte("a.go:1:1: finding\n")})
	if e := new(cacheEntry); !c.get(key, e) || string(e.Stdout) != "a.go:1:1: finding\n" || e.Code != ExitFindings {
		t.Fatalf("round trip: %+v", e)
	}
	path := filepath.Join(c.dir, key)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(data, []byte(`"Code":3`), []byte(`"Code":0`), 1)
	for name, content := range map[string][]byte{"tampered": tampered, "truncated": data[:len(data)/2], "empty": nil} {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if e := new(cacheEntry); c.get(key, e) {
			t.Errorf("%s entry used: %+v", name, e)
		}
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
		if err := os.Chtimes(filepath.Join(c.dir, key), old, old); err != nil {
			t.Fatal(err)
		}
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
}

// TestPackageCacheUnstable: a package one of whose files, or a
// dependency's, was written after the run began is not stored: its
// results may be of the content before.
func TestPackageCacheUnstable(t *testing.T) {
	dir := cacheModule(t)
	if err := os.MkdirAll(filepath.Join(dir, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b", "b.go"), []byte("package b\n\nimport \"cachedemo\"\n\nvar B = cachedemo.A()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	for _, f := range []string{"a.go", "b/b.go"} {
		if err := os.Chtimes(filepath.Join(dir, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	r := &runner{cache: true}
	c := r.newPkgCache(nil)
	pkgs, err := packages.Load(&packages.Config{Mode: listMode}, "./...")
	if err != nil || len(pkgs) != 2 {
		t.Fatalf("load: %d packages, %v", len(pkgs), err)
	}
	keys, err := c.keys(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	results := []pkgResult{{ID: "cachedemo"}, {ID: "cachedemo/b"}}
	// a.go is written after it was hashed: neither a nor b, which imports
	// it, may be stored.
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package cachedemo\n\nfunc A() int { return 3 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.store(pkgs, results, keys)
	var e pkgEntry
	for id, k := range keys {
		if c.disk.get(k.sum, &e) {
			t.Errorf("%s stored though a file it depends on changed during the run", id)
		}
	}
	// A run that begins after the edit stores both.
	c = r.newPkgCache(nil)
	keys, err = c.keys(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	c.store(pkgs, results, keys)
	for id, k := range keys {
		if !c.disk.get(k.sum, &e) || e.ID != id {
			t.Errorf("%s not stored: %+v", id, e)
		}
	}
}
