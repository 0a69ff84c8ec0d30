package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lateFile is a file of package svc, after header, that flattens a
// retryable error: a finding wherever it is compiled.
func lateFile(header string) string {
	return header + "package svc\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n" +
		"func (s *Service) lateReserve(ctx context.Context) error {\n\tif err := s.reserve(ctx); err != nil {\n" +
		"\t\treturn fmt.Errorf(\"late: %v\", err)\n\t}\n\treturn nil\n}\n"
}

// TestListingReuse: a run reuses the package cache's stored listing only
// when nothing go list reads changed (an edit of a function body), lists
// again after an edit of anything it reads (a build constraint, an
// import, a file or directory added or removed, a test file, an embedder,
// go.mod), and prints what an uncached run prints after every edit.
func TestListingReuse(t *testing.T) {
	t.Parallel()
	dir := foreignModule(t)
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	appendTo := func(name, text string) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		write(name, string(data)+text)
	}
	write("retry/version.go", "package retry\n\nimport _ \"embed\"\n\n//go:embed version.txt\nvar version string\n")
	write("retry/version.txt", "v1\n")
	settle(t, dir)

	cacheDir := t.TempDir()
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	env := append([]string{"XDG_CACHE_HOME=" + cacheDir, "RETRYLINT_CACHE_STATS=" + statsFile}, foreignEnv...)
	findings := 0
	settled := time.Now()
	// step makes an edit, settles what it touched (the files and
	// directories written since the last step), runs retrylint cached and
	// uncached, and compares their outputs and whether the listing was
	// reused.
	step := func(name string, reused bool, edit func()) {
		t.Helper()
		edit()
		settleSince(t, dir, settled.Add(-time.Second))
		settled = time.Now()
		want := startEnv(t, dir, withoutStats(env), "-cache=false", "./...")
		got, stats := runCacheStats(t, dir, env, statsFile, "./...")
		if w := want(); got != w {
			t.Errorf("%s: cached run printed\n%+v\nuncached:\n%+v", name, got, w)
		}
		if stats.ListingReused != reused {
			t.Errorf("%s: listing reused: %v, want %v", name, stats.ListingReused, reused)
		}
		findings = strings.Count(got.stdout, "\n")
	}
	nothing := func() {}
	step("first run", false, nothing)
	step("second run, which lists", false, nothing)
	step("unchanged", true, nothing)
	before := findings
	step("a body edited", true, func() {
		// HandleFine now acks its retryable error away.
		data, err := os.ReadFile(filepath.Join(dir, "svc", "svc.go"))
		if err != nil {
			t.Fatal(err)
		}
		write("svc/svc.go", strings.Replace(string(data), "\t\treturn err\n", "\t\treturn nil\n", 1))
	})
	if findings <= before {
		t.Errorf("a body edited: %d findings, want more than %d", findings, before)
	}

	step("a body edited, saved by renaming over the file", true, func() {
		tmp := filepath.Join(dir, "svc", "svc.go.tmp")
		data, err := os.ReadFile(filepath.Join(dir, "svc", "svc.go"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tmp, append(data, "\n// saved\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "svc", "svc.go")); err != nil {
			t.Fatal(err)
		}
	})

	// Files and directories added and removed.
	step("an ignored file added", false, func() { write("svc/late.go", lateFile("//go:build ignore\n\n")) })
	before = findings
	step("its build constraint removed", false, func() { write("svc/late.go", lateFile("")) })
	if findings <= before {
		t.Errorf("build constraint removed: %d findings, want more than %d", findings, before)
	}
	step("a file removed", false, func() {
		if err := os.Remove(filepath.Join(dir, "svc", "late.go")); err != nil {
			t.Fatal(err)
		}
	})
	step("a package added", false, func() {
		write("late/late.go", "package late\n\nfunc Late() int { return 1 }\n")
	})

	// Imports, and the files whose bodies go list reads.
	step("an import added", false, func() {
		appendTo("bus/json.go", "\nvar _ = strings.ToUpper\n")
		data, err := os.ReadFile(filepath.Join(dir, "bus", "json.go"))
		if err != nil {
			t.Fatal(err)
		}
		write("bus/json.go", strings.Replace(string(data), "import (", "import (\n\t\"strings\"", 1))
	})
	step("a test file added", false, func() {
		write("svc/svc_test.go", "package svc\n\nimport \"testing\"\n\nfunc TestReserve(t *testing.T) {}\n")
	})
	step("a test added", false, func() { appendTo("svc/svc_test.go", "\nfunc TestMore(t *testing.T) {}\n") })
	step("an embedder edited", false, func() { appendTo("retry/version.go", "\n//go:embed version.txt\nvar again string\n") })
	step("a cgo package added", false, func() { write("native/native.go", nativeGo) })
	step("a cgo file's body edited", false, func() {
		write("native/native.go", strings.Replace(nativeGo, "%w", "%v", 1))
	})
	step("go.mod edited", false, func() { appendTo("go.mod", "\n// edited\n") })
	step("unchanged at last", true, nothing)
}

// settleSince settles (see settle) the files and directories under root
// written after since, and them alone: a directory's time changes only
// when its entries do.
func settleSince(t *testing.T, root string, since time.Time) {
	t.Helper()
	then := time.Now().Add(-time.Minute)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil || !info.ModTime().After(since) {
			return err
		}
		return os.Chtimes(p, then, then)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// nativeGo is a cgo file whose Check wraps a retryable error; with %v for
// %w, it flattens it.
const nativeGo = `package native

// #include <stdlib.h>
import "C"

import (
	"fmt"
	"time"

	"example.com/shop/retry"
)

func Abs(n int) int { return int(C.abs(C.int(n))) }

func wait() error { return &retry.Busy{D: time.Second} }

func Check() error {
	if err := wait(); err != nil {
		return fmt.Errorf("native: %w", err)
	}
	return nil
}
`
