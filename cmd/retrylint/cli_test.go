package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The command line's contract in every mode (issue 22): each flag works
// with -fix or is refused in one line; -fix -diff and -diff exit 3 while
// findings remain; a total load failure still prints a valid document;
// a bad configuration file is printed once under go vet; a baseline that
// cannot serve is refused before loading.

// fixed reports whether fixModule's fixable finding (16:25, %v) was fixed.
func fixed(t *testing.T, dir string) bool {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "fixdemo.go"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(src), `fmt.Errorf("a: %w", produce())`)
}

// TestFixWithEveryFlag: -fix with each flag of the command line applies
// the fix and reports the finding that remains in the run's format, with
// exit 3; a flag whose value the fix run cannot be given is refused in one
// line, exit 2, before any file is touched.
func TestFixWithEveryFlag(t *testing.T) {
	t.Parallel()
	sarifResults := func(t *testing.T, out string) int {
		var log struct {
			Runs []struct{ Results []json.RawMessage }
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("not a SARIF log with one run: %v\n%s", err, out)
		}
		return len(log.Runs[0].Results)
	}
	for _, tc := range []struct {
		name  string
		args  func(dir string) []string // before the pattern
		prep  func(t *testing.T, dir string)
		check func(t *testing.T, r result) // by default, the finding at line 18 alone remains
	}{
		{"-format=sarif", func(string) []string { return []string{"-format=sarif"} }, nil,
			func(t *testing.T, r result) {
				if n := sarifResults(t, r.stdout); n != 1 {
					t.Errorf("%d SARIF results, want the one that remains", n)
				}
			}},
		{"-format=github", func(string) []string { return []string{"-format", "github"} }, nil,
			func(t *testing.T, r result) {
				if !regexp.MustCompile(`^::warning file=fixdemo\.go,line=18,`).MatchString(r.stdout) || strings.Count(r.stdout, "\n") != 1 {
					t.Errorf("want one annotation, of line 18:\n%s", r.stdout)
				}
			}},
		{"-json", func(string) []string { return []string{"-json"} }, nil,
			func(t *testing.T, r result) {
				var tree map[string]map[string][]json.RawMessage
				if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil || len(tree["fixdemo"]["retryflatten"]) != 1 {
					t.Errorf("want a JSON document with the one finding that remains: %v\n%s", err, r.stdout)
				}
			}},
		{"-baseline", func(dir string) []string { return []string{"-baseline", "base.json"} },
			func(t *testing.T, dir string) {
				writeFiles(t, dir, map[string]string{"base.json": `{"findings": []}`})
			},
			func(t *testing.T, r result) {
				if len(findings(r.stdout)) != 1 {
					t.Errorf("want the finding that remains, not in the (empty) baseline:\n%s", r.stdout)
				}
			}},
		{"-cache=false", func(string) []string { return []string{"-cache=false"} }, nil, nil},
		{"-C", func(dir string) []string { return []string{"-C", dir} }, nil, nil},
		{"-tags", func(string) []string { return []string{"-tags=special"} },
			func(t *testing.T, dir string) {
				src, _ := os.ReadFile(filepath.Join(dir, "fixdemo.go"))
				writeFiles(t, dir, map[string]string{"fixdemo.go": "//go:build special\n\n" + string(src), "doc.go": "package fixdemo\n"})
			},
			func(t *testing.T, r result) {
				if got := findings(r.stdout); len(got) != 1 || !strings.HasPrefix(got[0], "fixdemo.go:20:") {
					t.Errorf("want the finding that remains (20, below the constraint), got %q", got)
				}
			}},
		{"-test=false and -c", func(string) []string { return []string{"-test=false", "-c", "2"} }, nil, nil},
		{"analyzer flags", func(string) []string { return []string{"-retryflatten", "-retrycontract.dlq-pattern", "(?i)dlq"} }, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := fixModule(t)
			if tc.prep != nil {
				tc.prep(t, dir)
			}
			workIn := dir
			args := tc.args(dir)
			if tc.name == "-C" {
				workIn = t.TempDir()
			}
			r := runIn(t, workIn, binary, append(append([]string{"-fix"}, args...), "./...")...)
			if !fixed(t, dir) {
				t.Errorf("the fix was not applied (exit %d)\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r.code != 3 || strings.Count(r.stderr, "\n") > 1 || strings.Contains(r.stderr, "flag provided") {
				t.Errorf("exit %d, want 3, and at most one line on stderr:\n%s", r.code, r.stderr)
			}
			if tc.check != nil {
				tc.check(t, r)
			} else if got := findings(r.stdout); len(got) != 1 || !strings.HasPrefix(got[0], "fixdemo.go:18:") {
				t.Errorf("want the finding that remains (18), got %q", got)
			}
		})
	}
	for _, args := range [][]string{{"-tags=a b"}, {"-modfile", "go.mod"}} {
		t.Run("refused "+strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			dir := fixModule(t)
			r := runIn(t, dir, binary, append(append([]string{"-fix"}, args...), "./...")...)
			if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "-fix ") || fixed(t, dir) {
				t.Errorf("exit %d, fixed %v, stderr:\n%s", r.code, fixed(t, dir), r.stderr)
			}
		})
	}
}

// TestFixDiff: -fix -diff prints the diff, changes no file and exits 3 as
// the findings remain; -diff alone means the same; a clean module exits
// 0; -diff refuses the report's flags in one line.
func TestFixDiffExitStatus(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	for _, args := range [][]string{{"-fix", "-diff"}, {"-diff"}} {
		r := runIn(t, dir, binary, append(args, "./...")...)
		if r.code != 3 || !strings.Contains(r.stdout, `+func A() error { return fmt.Errorf("a: %w", produce()) }`) || fixed(t, dir) {
			t.Errorf("%v: exit %d, fixed %v\n%s%s", args, r.code, fixed(t, dir), r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "retryflatten:") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: want the diff alone on stdout, one line on stderr:\n%s%s", args, r.stdout, r.stderr)
		}
	}
	for _, flag := range []string{"-json", "-format=sarif", "-baseline=b.json"} {
		if r := runIn(t, dir, binary, "-diff", flag, "./..."); r.code != 2 || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("-diff %s: exit %d\n%s%s", flag, r.code, r.stdout, r.stderr)
		}
	}
	clean := t.TempDir()
	writeFiles(t, clean, map[string]string{"go.mod": "module clean\n\ngo 1.26\n", "clean.go": "package clean\n\nfunc F() int { return 1 }\n"})
	if r := runIn(t, clean, binary, "-fix", "-diff", "./..."); r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("clean module: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestFixBrokenPackage: -fix over a module with a package that does not
// parse fixes the others and names the broken one in retrylint's one
// line, not in the fix run's raw errors.
func TestFixBrokenPackage(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	writeFiles(t, dir, map[string]string{"broken/broken.go": "package broken\n\nfunc F( {\n"})
	r := runIn(t, dir, binary, "-fix", "./...")
	if !fixed(t, dir) {
		t.Errorf("the good package was not fixed")
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	want := "retrylint: fixdemo/broken: not analyzed: broken/broken.go:3:9: expected"
	if r.code != 1 || len(lines) != 2 || !strings.HasPrefix(lines[0], want) || !strings.Contains(lines[1], "fixes applied") {
		t.Errorf("exit %d, stderr:\n%s\nwant a line starting %q, then what remains", r.code, r.stderr, want)
	}
}

// TestTotalLoadFailure: when nothing loads, -json prints an empty JSON
// object and -format=sarif a SARIF log with one run and no results, with
// one line on stderr and exit 1; text prints nothing. The line of
// inconsistent vendoring keeps its reason.
func TestTotalLoadFailure(t *testing.T) {
	t.Parallel()
	noModule := t.TempDir()
	writeFiles(t, noModule, map[string]string{"a.go": "package a\n"})
	vendored := t.TempDir()
	writeFiles(t, vendored, map[string]string{
		"lib/go.mod": "module example.com/lib\n\ngo 1.26\n", "lib/lib.go": "package lib\n",
		"m/go.mod":             "module m\n\ngo 1.26\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
		"m/m.go":               "package m\n\nimport _ \"example.com/lib\"\n",
		"m/vendor/modules.txt": "# example.com/lib v0.0.1 => ../lib\n## explicit; go 1.26\nexample.com/lib\n# example.com/lib => ../lib\n",
	})
	mod := fixModule(t)
	for _, tc := range []struct {
		name, dir string
		args, env []string
		want      string
	}{
		{"no go.mod", noModule, nil, nil, "directory prefix . does not contain main module"},
		{"missing -modfile", mod, []string{"-modfile=missing.mod"}, nil, "missing.mod"},
		{"bad -tags", mod, []string{"-tags=a,b c"}, nil, "-tags space-separated list contains comma"},
		{"bad GOFLAGS", mod, nil, []string{"GOFLAGS=-bogus"}, "parsing $GOFLAGS: unknown flag -bogus"},
		{"inconsistent vendoring", filepath.Join(vendored, "m"), nil, nil,
			"inconsistent vendoring in " + filepath.Join(vendored, "m") + ": example.com/lib@v0.0.0: is explicitly required in go.mod, but not marked as explicit in vendor/modules.txt"},
	} {
		for _, format := range []string{"-format=text", "-json", "-format=sarif"} {
			r := runEnv(t, tc.dir, tc.env, append(append(tc.args, format), "./...")...)
			if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("%s %s: exit %d, stderr %q; want 1 and one line with %q", tc.name, format, r.code, r.stderr, tc.want)
			}
			switch format {
			case "-format=text":
				if r.stdout != "" {
					t.Errorf("%s: text output %q", tc.name, r.stdout)
				}
			case "-json":
				var tree map[string]any
				if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil || len(tree) != 0 {
					t.Errorf("%s -json: want an empty JSON object: %v\n%q", tc.name, err, r.stdout)
				}
			case "-format=sarif":
				var log struct {
					Version string
					Runs    []struct {
						Tool    struct{ Driver struct{ Name string } }
						Results []json.RawMessage
					}
				}
				if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 ||
					log.Runs[0].Tool.Driver.Name != "retrylint" || log.Runs[0].Results == nil || len(log.Runs[0].Results) != 0 {
					t.Errorf("%s sarif: want a log with one run and no results: %v\n%q", tc.name, err, r.stdout)
				}
			}
		}
	}
}

// TestVetBadConfigOnce: under go vet -vettool a bad .retrylint.yaml is
// printed once for the whole go vet run, not once per package, and go vet
// fails.
func TestVetBadConfigOnce(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	writeFiles(t, dir, map[string]string{
		".retrylint.yaml": "barenak:\n  strikt: true\n",
		"sub/sub.go":      "package sub\n\nimport _ \"fixdemo\"\n",
		"other/other.go":  "package other\n\nimport _ \"fmt\"\n",
	})
	r := runIn(t, dir, "go", "vet", "-vettool="+binary, "./...")
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if !strings.HasPrefix(line, "# ") {
			lines = append(lines, line)
		}
	}
	if r.code == 0 || len(lines) != 1 || !strings.Contains(lines[0], `:2: barenak has no option "strikt"`) {
		t.Errorf("exit %d, stderr %q; want the error once, alone", r.code, r.stderr)
	}
}

// TestBaselineRefusedBeforeLoading: a baseline that cannot serve is one
// line and exit 2 before anything is loaded (the pattern names a package
// that would fail to load), with nothing on stdout in any format.
func TestBaselineRefusedBeforeLoading(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	writeFiles(t, dir, map[string]string{
		"corrupt.json": `{"findings": [`,
		"array.json":   `[{"file": "fixdemo.go", "check": "retryflatten", "message": "x"}]`,
		"list.json":    `{"comment": "no list"}`,
		"empty.json":   "",
		"afile":        "not a directory",
		"dir/keep":     "",
	})
	for _, tc := range []struct{ baseline, want string }{
		{"corrupt.json", "corrupt.json is not a baseline: unexpected EOF"},
		{"array.json", "array.json is not a baseline: want a JSON object with a findings list"},
		{"list.json", "list.json is not a baseline: no findings list"},
		{"empty.json", "empty.json is not a baseline"},
		{"dir", "is a directory"},
		{"missing/base.json", "cannot record missing/base.json: no such directory"},
		{"afile/base.json", "afile/base.json: not a directory"},
		{filepath.Join(unwritableDir(t), "base.json"), "it takes no new file"},
	} {
		for _, format := range []string{"-format=text", "-format=sarif"} {
			r := runIn(t, dir, binary, "-baseline="+tc.baseline, format, "./no/such/package/...")
			if r.code != 2 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "-baseline: ") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.baseline, format, r.code, r.stdout, r.stderr, tc.want)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Error("a refused baseline created its directory")
	}
}

// unwritableDir returns a directory in which no file can be created: a
// read-only one, or for root, whom permissions do not stop, /sys.
func unwritableDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	for _, d := range []string{dir, "/sys"} {
		f, err := os.CreateTemp(d, "probe-*")
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return d
		}
		if err == nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
	t.Skip("no directory here refuses new files")
	return ""
}

// TestConfigProfileRelativeToFile: a profile named relatively in
// .retrylint.yaml is found from a subdirectory, with -C from elsewhere and
// in every go vet unit: the finding that needs it is reported each time.
func TestConfigProfileRelativeToFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":             "module example.com/app\n\ngo 1.26\n",
		"q/q.go":             qGo,
		"c/c.go":             cGo,
		"profiles/q.json":    profile,
		".retrylint.yaml":    "retrycontract:\n  profiles: [profiles/q.json]\n",
		"c/deeper/deeper.go": "package deeper\n",
	})
	const want = "bare Requeue redelivers transient error err at once"
	for name, r := range map[string]result{
		"subdirectory": runIn(t, filepath.Join(dir, "c", "deeper"), binary, "example.com/app/..."),
		"-C":           runIn(t, t.TempDir(), binary, "-C", dir, "./..."),
		"go vet":       runIn(t, filepath.Join(dir, "c"), "go", "vet", "-vettool="+binary, "example.com/app/..."),
	} {
		if out := r.stdout + r.stderr; !strings.Contains(out, want) || strings.Contains(out, "no such file") {
			t.Errorf("%s: exit %d, want the finding %q:\n%s", name, r.code, want, out)
		}
	}
}

// runEnv runs retrylint in dir with env added to the test's environment.
func runEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return startEnv(t, dir, env, args...)()
}

// startEnv starts what runEnv runs and returns at once; the function it
// returns waits for the run's result (later calls return it again). Runs
// that only read the same sources (uncached ones) can so overlap each
// other or a cached run, instead of queuing behind it.
func startEnv(t *testing.T, dir string, env []string, args ...string) func() result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s %v: %v", binary, args, err)
	}
	wait := sync.OnceValues(func() (result, error) {
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code, err = ee.ExitCode(), nil
		}
		return result{stdout.String(), stderr.String(), code}, err
	})
	// A test that stops early still waits for the run, before its
	// temporary directories go.
	t.Cleanup(func() { wait() })
	return func() result {
		t.Helper()
		r, err := wait()
		if err != nil {
			t.Fatalf("%s %v: %v", binary, args, err)
		}
		return r
	}
}

// withoutStats is env for an uncached run beside cached ones that share
// its RETRYLINT_CACHE_STATS file: an uncached run writes its stats too
// (everything analyzed), which would race with what a cached run wrote.
func withoutStats(env []string) []string {
	return append(slices.Clone(env), "RETRYLINT_CACHE_STATS=")
}

// TestWithoutStats: a run in withoutStats's environment leaves the stats
// file of the environment it was given alone.
func TestWithoutStats(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	env := withoutStats([]string{"XDG_CACHE_HOME=" + t.TempDir(), "RETRYLINT_CACHE_STATS=" + statsFile})
	if r := runEnv(t, dir, env, "-cache=false", "./..."); r.code != 3 {
		t.Fatalf("exit %d, want 3\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(statsFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run wrote its stats to %s (%v)", statsFile, err)
	}
}

// TestSuppressionFailsClosed: through the command line and go vet alike,
// a directive with a misspelled check list suppresses nothing and is
// reported; a file-ignore and .retrylint.yaml's exclude (top level and
// per check, relative to the file, with -C from elsewhere) keep findings
// out; an exclusion that names nothing is one line and exit 2.
func TestSuppressionFailsClosed(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	flat := func(name string) string {
		return "package " + name + "\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\n" +
			"type E struct{}\n\nfunc (E) Error() string { return \"busy\" }\n\nfunc (E) RetryDelay() time.Duration { return time.Second }\n\n" +
			"func F() error { return fmt.Errorf(\"f: %v\", E{}) }\n"
	}
	writeFiles(t, dir, map[string]string{
		"typo.go":          "package fixdemo\n\nimport \"fmt\"\n\nfunc C() error {\n\t//retrylint:ignore retryflaten,barenak the caller retries\n\treturn fmt.Errorf(\"c: %v\", produce())\n}\n",
		"legacy/legacy.go": flat("legacy"),
		"gen/gen.go":       flat("gen"),
		"filed/filed.go":   "//retrylint:file-ignore retryflatten operators read the text\n\n" + flat("filed"),
		".retrylint.yaml":  "exclude: [legacy]\nretryflatten:\n  exclude: [\"gen/*.go\", fixdemo.go]\n",
	})
	want := []string{
		"typo.go:6:2: //retrylint:ignore names unknown check \"retryflaten\" and suppresses nothing: correct it to retryflatten (checks: retryflatten, termbeforedlq, barenak, ackretryable, dlqunchecked, poisonack, settletwice, ackpermanent)",
		"typo.go:7:9: retryable error produce() formatted with %v loses its retry delay: wrap it with %w",
	}
	r := runIn(t, t.TempDir(), binary, "-C", dir, "./...")
	if got := findings(r.stdout); r.code != 3 || !slices.Equal(got, want) {
		t.Errorf("command line: exit %d\n%q\nwant\n%q\n%s", r.code, got, want, r.stderr)
	}
	vet := runIn(t, dir, "go", "vet", "-vettool="+binary, "./...")
	if got := findings(vet.stderr); !slices.Equal(got, want) {
		t.Errorf("go vet: %q\nwant %q\n%s", got, want, vet.stderr)
	}
	writeFiles(t, dir, map[string]string{".retrylint.yaml": "exclude: [legacy, lgeacy/**]\n"})
	r = runIn(t, dir, binary, "./...")
	cfg := filepath.Join(dir, ".retrylint.yaml")
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, cfg+`:1: exclude: "lgeacy/**" matches nothing`) {
		t.Errorf("an exclusion that names nothing: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestCIFormatsInNestedModule: with -C into a module below the repository
// root, SARIF and GitHub annotations name files from the git work tree's
// top level (what code scanning and annotations resolve), or after
// -path-prefix; SARIF results carry their region's end and their
// suggested fixes.
func TestCIFormatsInNestedModule(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	mod := fixModule(t)
	files := make(map[string]string)
	for _, name := range []string{"go.mod", "fixdemo.go"} {
		data, err := os.ReadFile(filepath.Join(mod, name))
		if err != nil {
			t.Fatal(err)
		}
		files["services/orders/"+name] = string(data)
	}
	writeFiles(t, repo, files)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	const file = "services/orders/fixdemo.go"

	r := runIn(t, repo, binary, "-C", "services/orders", "-format=github", "./...")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "::warning file="+file+",line=16,") {
		t.Errorf("github: exit %d, want annotations of %s:\n%s%s", r.code, file, r.stdout, r.stderr)
	}
	r = runIn(t, repo, binary, "-C", "services/orders", "-format=github", "-path-prefix=svc/x", "./...")
	if !strings.HasPrefix(r.stdout, "::warning file=svc/x/fixdemo.go,line=16,") {
		t.Errorf("github with -path-prefix: want svc/x/fixdemo.go:\n%s%s", r.stdout, r.stderr)
	}

	r = runIn(t, t.TempDir(), binary, "-C", filepath.Join(repo, "services", "orders"), "-format=sarif", "./...")
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				Fixes []struct {
					Description     struct{ Text string }
					ArtifactChanges []struct {
						ArtifactLocation struct{ URI string }
						Replacements     []struct {
							DeletedRegion   struct{ ByteOffset, ByteLength int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 2 {
		t.Fatalf("sarif: exit %d, %v, want two results:\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	fixes := 0
	for _, res := range log.Runs[0].Results {
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != file {
			t.Errorf("sarif: uri %q, want %q", loc.ArtifactLocation.URI, file)
		}
		if reg := loc.Region; reg.EndLine != reg.StartLine || reg.EndColumn <= reg.StartColumn {
			t.Errorf("sarif: region %+v has no end after its start", reg)
		}
		for _, fix := range res.Fixes {
			fixes++
			ch := fix.ArtifactChanges
			if fix.Description.Text == "" || len(ch) != 1 || ch[0].ArtifactLocation.URI != file || len(ch[0].Replacements) == 0 ||
				ch[0].Replacements[0].DeletedRegion.ByteOffset == 0 || ch[0].Replacements[0].InsertedContent.Text != "w" {
				t.Errorf("sarif: fix %+v, want the %%v to %%w edit of %s", fix, file)
			}
		}
	}
	if fixes != 1 {
		t.Errorf("sarif: %d fixes, want the one of the %%v finding", fixes)
	}
}
