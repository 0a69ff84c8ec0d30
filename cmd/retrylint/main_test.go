package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The tests build the command once and run it as users do, from the
// repository root. RETRYLINT_TEST_BINARY=path runs them against another
// build instead (an older revision, to see which tests it fails).
var (
	binary string
	root   = filepath.Join("..", "..")
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "retrylint-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "retrylint")
	if other := os.Getenv("RETRYLINT_TEST_BINARY"); other != "" {
		binary = other
	} else {
		build := exec.Command("go", "build", "-o", binary, ".")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

func run(t *testing.T, name string, args ...string) result {
	t.Helper()
	return runIn(t, root, name, args...)
}

func runIn(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	r, err := runCmd(dir, name, args...)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return r
}

// runCmd runs name in dir; err is set when it could not run.
func runCmd(dir, name string, args ...string) (result, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code, err = ee.ExitCode(), nil
	}
	return result{stdout.String(), stderr.String(), code}, err
}

// sharedRuns holds, by arguments, the runs of the command from the root
// that several tests read without changing anything: one run serves
// them all (the root's sources and the user's cache are the same for
// each).
var sharedRuns sync.Map // string → func() (result, error)

// runShared is run(t, binary, args...), once per test process.
func runShared(t *testing.T, args ...string) result {
	t.Helper()
	once, _ := sharedRuns.LoadOrStore(strings.Join(args, "\x00"), sync.OnceValues(func() (result, error) {
		return runCmd(root, binary, args...)
	}))
	r, err := once.(func() (result, error))()
	if err != nil {
		t.Fatalf("%s %v: %v", binary, args, err)
	}
	return r
}

var findingLine = regexp.MustCompile(`^(\S+\.go:\d+:\d+): (?:(\w+): )?(.*)$`)

// findings extracts "file:line:col: message" from text output, dropping
// the analyzer name the CLI adds so go vet's output compares equal.
func findings(out string) []string {
	var got []string
	for line := range strings.SplitSeq(out, "\n") {
		m := findingLine.FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(m[3], "\t") {
			continue // not a finding, or a related location
		}
		file := strings.TrimPrefix(filepath.ToSlash(m[1]), "./")
		got = append(got, file+": "+m[3])
	}
	slices.Sort(got)
	return got
}

func TestExamplesHaveFindings(t *testing.T) {
	t.Parallel()
	r := runShared(t, "./examples/...")
	if r.code != 3 {
		t.Fatalf("exit status %d, want 3 (findings)\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"examples/orders/handlers/orders.go:37:10: retryflatten: retryable error err formatted with %v",
		"retryflatten: Describe flattens retryable error err",
		"\texamples/orders/bus/bus.go:",
		"examples/orders/handlers/returns.go:28:7: poisonack: Ack on the decode failure of json.Unmarshal",
		"examples/orders/handlers/returns.go:41:6: dlqunchecked: Ack on the failure path of the DLQ write bus.DeadLetter",
		"examples/orders/handlers/returns.go:63:3: ackretryable: retryable error err from Release is dropped: returning nil makes bus.Run Ack the message",
		"examples/orders/handlers/stock.go:21:7: settletwice: NakWithDelay after Ack is ignored: the message was acknowledged before the work that failed",
		"examples/orders/handlers/stock.go:35:7: ackpermanent: Ack after err was classified as a permanent failure drops the message without evidence",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestProjectIsClean(t *testing.T) {
	t.Parallel()
	r := run(t, binary, "./runtime/...", "./analyzers/...", "./cmd/...", "./internal/...")
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("exit status %d, want 0\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestVetTool checks that go vet -vettool reports exactly what the command
// line reports.
func TestVetTool(t *testing.T) {
	t.Parallel()
	cli := runShared(t, "./examples/...")
	vet := run(t, "go", "vet", "-vettool="+binary, "./examples/...")
	if vet.code == 0 {
		t.Fatalf("go vet exited 0 on examples with findings:\n%s", vet.stderr)
	}
	want, got := findings(cli.stdout), findings(vet.stderr)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("go vet findings differ from the CLI's\nvet:\n%s\ncli:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJSON decodes -json output as go vet's shape:
// {"pkg": {"analyzer": [{"posn": ..., "message": ...}]}}.
func TestJSON(t *testing.T) {
	t.Parallel()
	r := run(t, binary, "-json", "./examples/...")
	if r.code != 3 {
		t.Fatalf("exit status %d, want 3\n%s", r.code, r.stderr)
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatalf("not the go vet JSON shape: %v\n%s", err, r.stdout)
	}
	type diagnostic struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
	n := 0
	for pkg, byAnalyzer := range tree {
		for analyzer, raw := range byAnalyzer {
			var diags []diagnostic
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Errorf("%s/%s: %v", pkg, analyzer, err)
			}
			for _, d := range diags {
				if d.Posn == "" || d.Message == "" {
					t.Errorf("%s/%s: incomplete diagnostic %+v", pkg, analyzer, d)
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no diagnostics in JSON output")
	}
}

func TestExitStatusAndErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // on stderr, one line
	}{
		{"unknown flag", []string{"-no-such-flag", "./examples/..."}, 2, "flag provided but not defined: -no-such-flag"},
		{"removed flag", []string{"-barenak.strict", "./examples/..."}, 2, "barenak.strict was removed: bare Naks on unclassified errors are reported by default now; set barenak.unclassified: false (flag -barenak.unclassified=false)"},
		{"bad regexp", []string{"-retrycontract.dlq-pattern=(dlq", "./examples/..."}, 2, "invalid regexp"},
		{"bad function name", []string{"-retrycontract.dlq-funcs=deadLetter", "./examples/..."}, 2, "malformed function name"},
		{"missing package", []string{"./no/such/dir/..."}, 1, "retrylint:"},
		{"only the model, which reports nothing", []string{"-retrycontract", "./examples/..."}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, binary, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			if tc.want != "" {
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				if len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
					t.Errorf("stderr = %q, want one line containing %q", r.stderr, tc.want)
				}
			}
		})
	}
}

// TestEnableFlags checks -NAME (only NAME) and -NAME=false (all but NAME).
func TestEnableFlags(t *testing.T) {
	t.Parallel()
	only := run(t, binary, "-retryflatten", "./examples/...")
	but := run(t, binary, "-retryflatten=false", "./examples/...")
	for line := range strings.SplitSeq(strings.TrimSpace(only.stdout), "\n") {
		if !strings.HasPrefix(line, "\t") && !strings.Contains(line, ": retryflatten: ") {
			t.Errorf("-retryflatten printed another analyzer's finding: %s", line)
		}
	}
	if strings.Contains(but.stdout, ": retryflatten: ") || but.stdout == "" {
		t.Errorf("-retryflatten=false output:\n%s", but.stdout)
	}
}

// TestHelpListsEveryFlag: -h (on stderr) and help (on stdout) list every
// flag of the command line, the analyzers' enable flags and options
// included, in one line each, by group; -h works beside a broken
// configuration file.
func TestHelpListsEveryFlag(t *testing.T) {
	t.Parallel()
	r := run(t, binary, "-flags") // the go vet protocol's list: the analyzers' flags
	var vetFlags []struct{ Name string }
	if err := json.Unmarshal([]byte(r.stdout), &vetFlags); err != nil {
		t.Fatalf("-flags: %v\n%s", err, r.stdout)
	}
	want := []string{"format", "baseline", "C", "config", "modfile", "cache", "fix", "version"}
	for _, f := range vetFlags {
		switch f.Name {
		case "V", "flags", "all", "source", "v": // the go vet protocol's and multichecker's own
		default:
			want = append(want, f.Name)
		}
	}
	broken := t.TempDir()
	writeFiles(t, broken, map[string]string{".retrylint.yaml": "barenak: [\n"})
	for _, out := range []struct{ name, text string }{
		{"-h", runIn(t, broken, binary, "-h").stderr},
		{"help", run(t, binary, "help").stdout},
	} {
		lines := strings.Split(out.text, "\n")
		for _, name := range want {
			line := regexp.MustCompile(`^  -` + regexp.QuoteMeta(name) + `( |$)`)
			n := 0
			for _, l := range lines {
				if line.MatchString(l) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: -%s is on %d lines, want 1", out.name, name, n)
			}
		}
		last := -1
		for _, group := range []string{"Output:", "Fixes:", "Loading:", "Other:", "Analyzers (", "Analyzer options ("} {
			i := strings.Index(out.text, "\n"+group)
			if i < last {
				t.Errorf("%s: group %q missing or out of order", out.name, group)
			}
			last = i
		}
		if t.Failed() {
			t.Logf("%s:\n%s", out.name, out.text)
		}
	}
}

func TestHelpListsAnalyzers(t *testing.T) {
	t.Parallel()
	r := run(t, binary, "help")
	if r.code != 0 {
		t.Fatalf("exit status %d", r.code)
	}
	for _, name := range []string{"retryflatten", "retrycontract"} {
		if !strings.Contains(r.stdout, name) {
			t.Errorf("help lacks %s:\n%s", name, r.stdout)
		}
	}
	r = run(t, binary, "help", "retryflatten")
	if r.code != 0 || !strings.Contains(r.stdout, "retryable error flattened to a string") {
		t.Errorf("help retryflatten: %d\n%s", r.code, r.stdout)
	}
}

// TestFixDiff checks that -fix -diff proposes the %w rewrite without
// touching the file.
func TestFixDiff(t *testing.T) {
	t.Parallel()
	before, err := os.ReadFile(filepath.Join(root, "examples/orders/handlers/orders.go"))
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, binary, "-fix", "-diff", "./examples/orders/handlers")
	if !strings.Contains(r.stdout, `+		return fmt.Errorf("reserve order %s: %w", o.ID, err)`) {
		t.Errorf("diff lacks the %%w fix (exit %d):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	after, _ := os.ReadFile(filepath.Join(root, "examples/orders/handlers/orders.go"))
	if !bytes.Equal(before, after) {
		t.Error("-diff modified the file")
	}
}

// TestTypeErrors checks that a package with type errors is still analyzed
// (the checks run despite errors, as in an editor), that the run says so in
// one line, and that it ends with the failure status.
func TestTypeErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/broken\n\ngo 1.26\n",
		"broken.go": `package broken

import (
	"errors"
	"fmt"
	"time"
)

type busy struct{}

func (busy) Error() string              { return "busy" }
func (busy) RetryDelay() time.Duration { return time.Second }

func reserve() error { return busy{} }

func Handle() error { return fmt.Errorf("reserve: %v", reserve()) }

func Broken() error { return errors.New(undefinedThing) }
`,
	}
	writeFiles(t, dir, files)
	r := runIn(t, dir, binary, "./...")
	if r.code != 1 {
		t.Fatalf("exit status %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "broken.go:16:30: retryflatten: retryable error reserve() formatted with %v") {
		t.Errorf("finding in the ill-typed package missing:\n%s", r.stdout)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "type errors, findings may be incomplete") || !strings.Contains(lines[0], "undefinedThing") {
		t.Errorf("stderr = %q, want one line naming the type error", r.stderr)
	}
}

// writeFiles writes files (slash-separated paths to contents) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// flattenSource is a package with one retryflatten finding, at 15:30.
const flattenSource = `package %s

import (
	"fmt"
	"time"
)

type busy struct{}

func (busy) Error() string              { return "busy" }
func (busy) RetryDelay() time.Duration { return time.Second }

func reserve() error { return busy{} }

func Handle() error { return fmt.Errorf("reserve: %%v", reserve()) }
`

// withImport adds an import of path to src, a flattenSource, as a group of
// its own: it moves the finding two lines down.
func withImport(src, path string) string {
	return strings.Replace(src, `"time"`, `"time"`+"\n\n\t"+strconv.Quote(path), 1)
}

// TestFailedLoads checks that a package that fails to load does not stop
// the run: the other packages are analyzed, and so is the package that
// imports the failed one (as a package with type errors); stderr has one
// line naming the failed import; the exit status is 1 despite the
// findings; under -json, stdout is still one JSON document with the
// findings.
func TestFailedLoads(t *testing.T) {
	t.Parallel()
	const goMod = "module example.com/m\n\ngo 1.26\n"
	// bad has a finding of its own besides the import that fails, two
	// lines lower than good's for the import.
	const goodFinding, badFinding = "good/good.go:15:30", "bad/bad.go:17:30"
	badSource := func(imp, use string) string {
		return withImport(fmt.Sprintf(flattenSource, "bad"), imp) + "\nfunc Use() { " + use + " }\n"
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // the one line on stderr
	}{
		{
			name: "directory without Go files",
			files: map[string]string{
				"go.mod":         goMod,
				"good/good.go":   fmt.Sprintf(flattenSource, "good"),
				"bad/bad.go":     badSource("example.com/m/empty", "empty.Thing()"),
				"empty/README":   "no Go files here\n",
				"other/other.go": "package other\n\nfunc F() {}\n",
			},
			want: "retrylint: example.com/m/bad: could not import example.com/m/empty: ",
		},
		{
			name: "module replaced by a missing directory",
			files: map[string]string{
				"go.mod":       goMod + "\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./nope\n",
				"good/good.go": fmt.Sprintf(flattenSource, "good"),
				"bad/bad.go":   badSource("example.com/dep/x", "x.Thing()"),
			},
			want: "retrylint: example.com/m/bad: could not import example.com/dep/x: example.com/dep@v0.0.0: replacement directory ./nope does not exist",
		},
		{
			// go list's advice is on the next line: the go get is kept.
			name: "module not required",
			files: map[string]string{
				"go.mod":       goMod,
				"good/good.go": fmt.Sprintf(flattenSource, "good"),
				"bad/bad.go":   badSource("example.com/nope/x", "x.Thing()"),
			},
			want: "retrylint: example.com/m/bad: could not import example.com/nope/x: no required module provides package example.com/nope/x; to add it: go get example.com/nope/x",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			checkStderr := func(r result) {
				t.Helper()
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				if len(lines) != 1 || !strings.HasPrefix(lines[0], tc.want) {
					t.Errorf("stderr = %q, want one line starting %q", r.stderr, tc.want)
				}
				for _, noise := range []string{"exit status", "-: ", "packages failed to load", "type errors"} {
					if strings.Contains(r.stderr, noise) {
						t.Errorf("stderr has %q: %q", noise, r.stderr)
					}
				}
			}

			r := runIn(t, dir, binary, "./...")
			if r.code != 1 {
				t.Fatalf("exit status %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			for _, want := range []string{goodFinding, badFinding} {
				want += ": retryflatten: retryable error reserve() formatted with %v"
				if !strings.Contains(r.stdout, want) {
					t.Errorf("finding %s missing:\n%s", want, r.stdout)
				}
			}
			checkStderr(r)

			r = runIn(t, dir, binary, "-json", "./...")
			if r.code != 1 {
				t.Fatalf("-json: exit status %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			var tree map[string]map[string][]struct {
				Posn    string `json:"posn"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
				t.Fatalf("-json: stdout is not go vet's JSON shape: %v\n%s", err, r.stdout)
			}
			for pkg, posn := range map[string]string{"example.com/m/good": goodFinding, "example.com/m/bad": badFinding} {
				diags := tree[pkg]["retryflatten"]
				if len(diags) != 1 || !strings.HasSuffix(filepath.ToSlash(diags[0].Posn), posn) {
					t.Errorf("-json: %s findings = %+v, want the one at %s\n%s", pkg, diags, posn, r.stdout)
				}
			}
			checkStderr(r)
		})
	}
}

// TestSyntaxErrors checks that a package that cannot be parsed is not
// analyzed, with a notice, while the packages that import it are, and the
// run ends with the failure status.
func TestSyntaxErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/s\n\ngo 1.26\n",
		"syn/syn.go":   "package syn\n\nfunc F() int { return 1 }\n\nfunc Broken() {\n\tx :=\n}\n",
		"user/user.go": withImport(fmt.Sprintf(flattenSource, "user"), "example.com/s/syn") + "\nvar _ = syn.F\n",
	})
	r := runIn(t, dir, binary, "./...")
	if r.code != 1 {
		t.Fatalf("exit status %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "user/user.go:17:30: retryflatten: retryable error reserve() formatted with %v") {
		t.Errorf("finding in the importing package missing:\n%s", r.stdout)
	}
	want := []string{
		"retrylint: example.com/s/syn: not analyzed: ",
		"retrylint: example.com/s/user: imports example.com/s/syn, which has syntax errors: ",
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != len(want) {
		t.Fatalf("stderr = %q, want %d lines", r.stderr, len(want))
	}
	for i, line := range lines {
		if !strings.HasPrefix(line, want[i]) || !strings.Contains(line, "syn.go:7:1: ") {
			t.Errorf("stderr line %d = %q, want %q and the position of the syntax error", i, line, want[i])
		}
	}
}

// TestBadHandlerDirective checks that a //retrylint:handler directive
// naming no func-typed parameter fails the package's analysis with one
// line that names the directive's place, instead of being ignored.
func TestBadHandlerDirective(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/bus\n\ngo 1.26\n",
		"bus.go": `package bus

import "context"

// Run calls h.
//
//retrylint:handler handler
func Run(ctx context.Context, h func(context.Context) error) {
	_ = h(ctx)
}
`,
	})
	r := runIn(t, dir, binary, "./...")
	if r.code != 1 {
		t.Fatalf("exit status %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], `bus.go:7:1: //retrylint:handler "handler" names no parameter of Run of type func(...) error`) {
		t.Errorf("stderr = %q, want one line with the directive's place and problem", r.stderr)
	}
}

// TestForeignHandler checks a handler declared in one package and
// registered in another (cmd/app wires svc.HandleOrder into bus.Subscribe):
// the return that drops the retryable error is reported at the
// registration, in the registering package, naming the handler, with the
// handler's return, the registration and the bus's Ack as related
// locations; so are poisonack's and dlqunchecked's returns, and
// ackpermanent's Ack of a permanent failure (svc.HandlePermanent), while
// svc.HandlePermanentFine, which decides with errors.Is, stays quiet. So
// is a typed handler (svc.HandleTyped takes the decoded payload, not the message)
// registered through the generic bus.JSON; svc.Refresh, of the same shape
// but registered nowhere, stays quiet.
func TestForeignHandler(t *testing.T) {
	t.Parallel()
	dir := foreignModule(t)
	r := runEnv(t, dir, foreignEnv, "./...")
	if r.code != 3 {
		t.Fatalf("exit status %d, want 3\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	want := "cmd/app/main.go:10:9: ackretryable: retryable error err from reserve is dropped by handler (*svc.Service).HandleOrder: returning nil makes bus.Subscribe Ack the message; return the error (or NakWithDelay its retry delay)\n" +
		"\tsvc/svc.go:20:3: the handler returns nil here\n" +
		"\tbus/bus.go:18:7: bus.Subscribe Acks the message here\n" +
		"cmd/app/main.go:12:9: poisonack: handler (*svc.Service).HandleDecoded returning nil on the decode failure of json.Unmarshal makes bus.Subscribe Ack the message: the undecodable payload disappears as if it were handled; return the decode error (or dead-letter it and check the write)\n" +
		"\tsvc/decode.go:15:3: the handler returns nil here\n" +
		"\tsvc/decode.go:14:12: the decode\n" +
		"\tbus/bus.go:18:7: bus.Subscribe Acks the message here\n" +
		"cmd/app/main.go:14:9: dlqunchecked: handler (*svc.Service).HandleParked returning nil (bus.Subscribe then Acks the message) on the failure path of the DLQ write s.writeDLQ loses the message and its evidence: on failure NakWithDelay and return instead of acking\n" +
		"\tsvc/park.go:16:2: the handler returns nil here\n" +
		"\tsvc/park.go:13:12: the DLQ write\n" +
		"\tbus/bus.go:18:7: bus.Subscribe Acks the message here\n" +
		"cmd/app/main.go:16:9: ackretryable: retryable error err from reserve is dropped by handler (*svc.Service).HandleTyped: returning nil makes bus.Subscribe Ack the message; return the error (or NakWithDelay its retry delay)\n" +
		"\tsvc/typed.go:15:3: the handler returns nil here\n" +
		"\tbus/bus.go:18:7: bus.Subscribe Acks the message here\n" +
		"cmd/app/main.go:18:9: ackpermanent: handler (*svc.Service).HandlePermanent returning nil (bus.Subscribe then Acks the message) after err was classified as a permanent failure drops the message without evidence, though its package dead-letters elsewhere: write it to the DLQ, check the write, then Term it\n" +
		"\tsvc/permanent.go:22:3: the handler returns nil here\n" +
		"\tsvc/permanent.go:18:6: classified as having no retry intent here\n" +
		"\tbus/bus.go:18:7: bus.Subscribe Acks the message here\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
}

// TestForeignHandlerVet: under go vet, where facts travel gob-encoded
// between separate processes (one per package), the foreign handlers'
// facts (one generic fact type per check) arrive, and the findings are
// the CLI's, at the registrations.
func TestForeignHandlerVet(t *testing.T) {
	t.Parallel()
	dir := foreignModule(t)
	cli := runEnv(t, dir, foreignEnv, "./...")
	cmd := exec.Command("go", "vet", "-vettool="+binary, "./...")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), foreignEnv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatalf("go vet exited 0 on handlers with findings:\n%s", stderr.String())
	}
	want, got := findings(cli.stdout), findings(stderr.String())
	if len(want) != 5 || !slices.Equal(got, want) {
		t.Errorf("go vet findings differ from the CLI's\nvet:\n%s\ncli:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range got {
		if !strings.HasPrefix(f, "cmd/app/main.go:") {
			t.Errorf("vet finding %q is not at a registration in cmd/app", f)
		}
	}
}

// TestInterfaceWired: a service registers its handlers on an interface
// (api.Bus) whose implementation (natsbus) it does not import; main wires
// them. The registration is reported where both are in sight (main's
// pass), at the registration, with the handler's return as a related
// location. A hook given to an interface whose implementation acks
// nothing, and a handler that returns its error, stay quiet.
func TestInterfaceWired(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t, "ifacewired")
	r := runEnv(t, dir, foreignEnv, "./...")
	if r.code != 3 {
		t.Fatalf("exit status %d, want 3\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	want := "svc/svc.go:50:12: ackretryable: retryable error err from reserve is dropped by handler s.handleOrder: returning nil makes s.bus.Subscribe Ack the message (*natsbus.NatsBus implements api.Bus); return the error (or NakWithDelay its retry delay)\n" +
		"\tsvc/svc.go:33:3: the handler returns nil here\n" +
		"\tnatsbus/natsbus.go:23:7: (*natsbus.NatsBus).Subscribe Acks the message here\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
}

// foreignModule copies testdata/foreign, a module that requires nats.go,
// to a temporary directory and returns it. The go command works in it
// with foreignEnv.
func foreignModule(t *testing.T) string {
	t.Helper()
	return fixtureModule(t, "foreign")
}

// fixtureModule copies testdata/<name>, a module like testdata/foreign,
// to a temporary directory and returns it.
func fixtureModule(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("testdata", name)
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == "go.mod.txt" {
			rel = "go.mod"
		}
		target := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// The fixture requires nats.go: the examples' module has its sums.
	var sum []byte
	for _, f := range []string{"go.sum", "examples/go.sum"} {
		data, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		sum = append(sum, data...)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// foreignEnv is the environment, beside the test's, of the go command and
// of retrylint in a foreignModule. (Given to each command rather than set
// with t.Setenv, which a parallel test cannot use.)
var foreignEnv = []string{"GOFLAGS=-mod=mod"}

// TestRuntimeRunnerHandler checks that this project's runtime runner is
// inferred as a caller that Acks when its handler returns nil, by the same
// facts as any bus (NewRunner stores the handler in a field; process calls
// it through a wrapper and Acks on nil through a helper): a handler that
// swallows a retryable error is reported, with the runner's Ack as the
// related location.
func TestRuntimeRunnerHandler(t *testing.T) {
	t.Parallel()
	r := run(t, binary, "./cmd/retrylint/testdata/runtimeuser")
	if r.code != 3 {
		t.Fatalf("exit status %d, want 3\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"cmd/retrylint/testdata/runtimeuser/user.go:28:3: ackretryable: retryable error err from reserve is dropped: returning nil makes bus.NewRunner Ack the message",
		"\truntime/bus/process.go:",
		"bus.NewRunner Acks the message here",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

// fixModule writes a module with one finding -fix can fix (%v → %w) and one
// it cannot (errors.New of the text).
func fixModule(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module fixdemo\n\ngo 1.26\n",
		"fixdemo.go": `package fixdemo

import (
	"errors"
	"fmt"
	"time"
)

type TempErr struct{ d time.Duration }

func (e *TempErr) Error() string             { return "temporarily unavailable" }
func (e *TempErr) RetryDelay() time.Duration { return e.d }

func produce() error { return &TempErr{time.Second} }

func A() error { return fmt.Errorf("a: %v", produce()) }

func B() error { return errors.New("b: " + produce().Error()) }
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFixReportsWhatRemains: -fix applies the fixes, then reports the
// findings no fix covers and exits 3; with -json they come as JSON.
func TestFixReportsWhatRemains(t *testing.T) {
	t.Parallel()
	for _, jsonOut := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", jsonOut), func(t *testing.T) {
			t.Parallel()
			dir := fixModule(t)
			args := []string{"-fix", "./..."}
			if jsonOut {
				args = append([]string{"-json"}, args...)
			}
			r := runIn(t, dir, binary, args...)
			src, err := os.ReadFile(filepath.Join(dir, "fixdemo.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), `fmt.Errorf("a: %w", produce())`) {
				t.Errorf("json=%v: the fix was not applied:\n%s", jsonOut, src)
			}
			if r.code != 3 {
				t.Errorf("json=%v: exit %d, want 3 (a finding remains)\nstdout:\n%s\nstderr:\n%s", jsonOut, r.code, r.stdout, r.stderr)
			}
			if strings.Contains(r.stdout, "fixdemo.go:16:") || !strings.Contains(r.stdout, "fixdemo.go:18:") {
				t.Errorf("json=%v: want only the unfixable finding reported:\n%s", jsonOut, r.stdout)
			}
			if jsonOut && !strings.HasPrefix(strings.TrimSpace(r.stdout), "{") {
				t.Errorf("-json -fix printed no JSON:\n%s", r.stdout)
			}
			if !jsonOut && !strings.Contains(r.stderr, "1 finding(s) above have no suggested fix") {
				t.Errorf("stderr does not say what remains:\n%s", r.stderr)
			}
		})
	}
}

// TestFixBadFlag: a bad flag under -fix is one line and exit 2, before any
// file is touched.
func TestFixBadFlag(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	r := runIn(t, dir, binary, "-fix", "-bogus", "./...")
	src, _ := os.ReadFile(filepath.Join(dir, "fixdemo.go"))
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "-bogus") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(string(src), "%w") {
		t.Error("a file was changed despite the bad flag")
	}
}

// TestSARIF checks the SARIF 2.1.0 log of the examples: the schema's
// required fields, one rule per check with its doc, each finding a result
// whose ruleId and ruleIndex name its check, related locations kept.
func TestSARIF(t *testing.T) {
	t.Parallel()
	text := runShared(t, "./examples/...")
	r := run(t, binary, "-format=sarif", "./examples/...")
	if r.code != 3 {
		t.Fatalf("exit %d, want 3\n%s", r.code, r.stderr)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						HelpURI          string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					} `json:"physicalLocation"`
				} `json:"locations"`
				RelatedLocations []json.RawMessage `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "retrylint" {
		t.Fatalf("log header: version %q schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run0 := log.Runs[0]
	var ids []string
	for _, rule := range run0.Tool.Driver.Rules {
		ids = append(ids, rule.ID)
		if rule.ShortDescription.Text == "" || rule.FullDescription.Text == "" || rule.HelpURI == "" {
			t.Errorf("rule %s lacks its doc: %+v", rule.ID, rule)
		}
	}
	for _, want := range []string{"retryflatten", "termbeforedlq", "barenak", "ackretryable", "dlqunchecked", "poisonack", "settletwice", "ackpermanent", "retrylint"} {
		if !slices.Contains(ids, want) {
			t.Errorf("no rule %s among %v", want, ids)
		}
	}
	if got, want := len(run0.Results), len(findings(text.stdout)); got != want || got == 0 {
		t.Fatalf("%d results, the text output has %d findings", got, want)
	}
	related := 0
	for _, res := range run0.Results {
		loc := res.Locations
		if res.RuleIndex < 0 || res.RuleIndex >= len(ids) || ids[res.RuleIndex] != res.RuleID || res.Level != "warning" || res.Message.Text == "" ||
			len(loc) != 1 || !strings.HasPrefix(loc[0].PhysicalLocation.ArtifactLocation.URI, "examples/") || loc[0].PhysicalLocation.Region.StartLine == 0 {
			t.Errorf("result: %+v", res)
		}
		related += len(res.RelatedLocations)
	}
	if related == 0 {
		t.Error("no result kept its related locations")
	}
}

// TestGitHubAnnotations: one workflow command per finding, with the file,
// line, column and check.
func TestGitHubAnnotations(t *testing.T) {
	t.Parallel()
	text := runShared(t, "./examples/...")
	r := run(t, binary, "-format=github", "./examples/...")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 3 || len(lines) != len(findings(text.stdout)) {
		t.Fatalf("exit %d, %d annotations for %d findings:\n%s", r.code, len(lines), len(findings(text.stdout)), r.stdout)
	}
	annotation := regexp.MustCompile(`^::warning file=examples/[^,]+\.go,line=\d+,col=\d+,title=(retryflatten|termbeforedlq|barenak|ackretryable|dlqunchecked|poisonack|settletwice|ackpermanent)::\S`)
	for _, l := range lines {
		if !annotation.MatchString(l) {
			t.Errorf("annotation %q", l)
		}
	}
	if bad := run(t, binary, "-format=xml", "./examples/..."); bad.code != 2 || strings.Count(bad.stderr, "\n") != 1 {
		t.Errorf("-format=xml: exit %d, stderr %q", bad.code, bad.stderr)
	}
}

// TestTagsAndModfile: -tags reaches the build (a finding in a file behind
// a build constraint appears only with the tag), -modfile too (a missing
// one is a load error, in one clean line).
func TestTagsAndModfile(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	src, err := os.ReadFile(filepath.Join(dir, "fixdemo.go"))
	if err != nil {
		t.Fatal(err)
	}
	tagged := "//go:build special\n\n" + string(src)
	if err := os.WriteFile(filepath.Join(dir, "fixdemo.go"), []byte(tagged), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "doc.go"), []byte("package fixdemo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, dir, binary, "./..."); r.code != 0 || r.stdout != "" {
		t.Errorf("without the tag: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, binary, "-tags=special", "./..."); r.code != 3 || !strings.Contains(r.stdout, "fixdemo.go:18:") {
		t.Errorf("-tags=special: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err := os.WriteFile(filepath.Join(dir, "alt.mod"), mod, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, dir, binary, "-modfile=alt.mod", "-tags=special", "./..."); r.code != 3 {
		t.Errorf("-modfile=alt.mod: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := runIn(t, dir, binary, "-modfile=missing.mod", "./...")
	if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "missing.mod") ||
		strings.Contains(r.stderr, "exit status") || strings.Contains(r.stderr, "stderr:") {
		t.Errorf("-modfile=missing.mod: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestBaseline: the first run records the findings and exits 0; the next
// reports nothing; a new finding is reported alone, even on a shifted line.
func TestBaseline(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	base := filepath.Join(dir, "retrylint-baseline.json")
	if r := runIn(t, dir, binary, "-baseline="+base, "./..."); r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "recorded 2 finding(s)") {
		t.Fatalf("recording: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, binary, "-baseline="+base, "./..."); r.code != 0 || r.stdout != "" {
		t.Fatalf("with the baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "fixdemo.go"))
	shifted := strings.Replace(string(src), "func A()", "// A moved down a line.\nfunc A()", 1) +
		"\nfunc C() error { return fmt.Errorf(\"c: %s\", produce()) }\n"
	if err := os.WriteFile(filepath.Join(dir, "fixdemo.go"), []byte(shifted), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, dir, binary, "-baseline="+base, "./...")
	if got := findings(r.stdout); r.code != 3 || len(got) != 1 || !strings.Contains(got[0], "formatted with %s") {
		t.Fatalf("a new finding: exit %d, findings %q\n%s", r.code, got, r.stderr)
	}
	if r := runIn(t, dir, binary, "-json", "-baseline="+base, "./..."); r.code != 2 || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("-json -baseline: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestConfigFile: .retrylint.yaml, found from the directory the run works
// in, reaches the command line and go vet -vettool alike (the same
// findings); command-line flags win; -config names another file; a bad
// file is one line with its file and line, and exit 2.
func TestConfigFile(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	cfg := filepath.Join(dir, ".retrylint.yaml")
	if err := os.WriteFile(cfg, []byte("disable: [retryflatten]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, dir, binary, "./..."); r.code != 0 || r.stdout != "" {
		t.Errorf("disabled by the file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, "go", "vet", "-vettool="+binary, "./..."); r.code != 0 || strings.Contains(r.stderr, "retryable") {
		t.Errorf("go vet, disabled by the file: exit %d\n%s", r.code, r.stderr)
	}
	if r := runIn(t, dir, binary, "-retryflatten", "./..."); r.code != 3 || len(findings(r.stdout)) != 2 {
		t.Errorf("the command line wins: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	other := filepath.Join(t.TempDir(), "other.yaml")
	if err := os.WriteFile(other, []byte("barenak:\n  unclassified: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, dir, binary, "-config", other, "./...")
	if r.code != 3 || len(findings(r.stdout)) != 2 {
		t.Errorf("-config names another file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(cfg, []byte("retryflatten: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vet := runIn(t, dir, "go", "vet", "-vettool="+binary, "./...")
	if got, want := findings(vet.stderr), findings(runIn(t, dir, binary, "./...").stdout); !slices.Equal(got, want) || len(want) != 2 {
		t.Errorf("go vet after the file changed: %q, the command line %q", got, want)
	}
	if err := os.WriteFile(cfg, []byte("barenak:\n  strikt: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runIn(t, dir, binary, "./...")
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, cfg+`:2: barenak has no option "strikt"`) {
		t.Errorf("bad file: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestDLQFuncsMustExist: a dlq-funcs entry naming a function or method a
// loaded package lacks is one line and exit 2, from a flag or the
// configuration file; an entry of a package not loaded is not judged.
func TestDLQFuncsMustExist(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	r := runIn(t, dir, binary, "-retrycontract.dlq-funcs=fixdemo.Missing,fixdemo.TempErr.Error", "./...")
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "fixdemo.Missing (-retrycontract.dlq-funcs): no function Missing in fixdemo") ||
		strings.Contains(r.stderr, "TempErr.Error") {
		t.Errorf("flag: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runIn(t, dir, binary, "-retrycontract.dlq-funcs=fixdemo.A,fixdemo.TempErr.Error,example.com/elsewhere.Park", "./..."); r.code != 3 {
		t.Errorf("existing entries: exit %d, stderr %q", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, ".retrylint.yaml"), []byte("retrycontract:\n  dlq-funcs: [fixdemo.TempErr.Park]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, ".retrylint.yaml")
	if r := runIn(t, dir, binary, "./..."); r.code != 2 || !strings.Contains(r.stderr, "fixdemo.TempErr.Park ("+cfg+":2): no method TempErr.Park in fixdemo") {
		t.Errorf("file: exit %d, stderr %q", r.code, r.stderr)
	}
	// go vet runs package by package: the meta check reports the entry in
	// the package that should declare it, with the file's line.
	vet := runIn(t, dir, "go", "vet", "-vettool="+binary, "./...")
	if want := "fixdemo.go:1:1: dlq-funcs entry fixdemo.TempErr.Park (" + cfg + ":2) names no method TempErr.Park of package fixdemo"; vet.code == 0 || !strings.Contains(vet.stderr, want) {
		t.Errorf("go vet: exit %d, stderr %q, want %q", vet.code, vet.stderr, want)
	}
}

// TestDecodeFuncsMustExist: decode-funcs entries are checked as dlq-funcs
// entries are, from a flag or the configuration file.
func TestDecodeFuncsMustExist(t *testing.T) {
	t.Parallel()
	dir := fixModule(t)
	r := runIn(t, dir, binary, "-retrycontract.decode-funcs=fixdemo.Missing,fixdemo.TempErr.Error", "./...")
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "-retrycontract.decode-funcs names what does not exist") ||
		!strings.Contains(r.stderr, "fixdemo.Missing (-retrycontract.decode-funcs): no function Missing in fixdemo") {
		t.Errorf("flag: exit %d, stderr %q", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, ".retrylint.yaml"), []byte("retrycontract:\n  decode-funcs: [fixdemo.TempErr.Park]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, ".retrylint.yaml")
	if r := runIn(t, dir, binary, "./..."); r.code != 2 || !strings.Contains(r.stderr, "fixdemo.TempErr.Park ("+cfg+":2): no method TempErr.Park in fixdemo") {
		t.Errorf("file: exit %d, stderr %q", r.code, r.stderr)
	}
	vet := runIn(t, dir, "go", "vet", "-vettool="+binary, "./...")
	if want := "fixdemo.go:1:1: decode-funcs entry fixdemo.TempErr.Park (" + cfg + ":2) names no method TempErr.Park of package fixdemo"; vet.code == 0 || !strings.Contains(vet.stderr, want) {
		t.Errorf("go vet: exit %d, stderr %q, want %q", vet.code, vet.stderr, want)
	}
}

// TestVetBadFlag: under go vet -vettool, a bad option value is printed
// once for the whole run (not once per package, dependencies included,
// with the usage of every flag), and go vet fails.
func TestVetBadFlag(t *testing.T) {
	t.Parallel()
	r := run(t, "go", "vet", "-vettool="+binary, "-retrycontract.dlq-pattern=(dlq", "./examples/...")
	if r.code == 0 {
		t.Fatalf("go vet exited 0 with a bad option:\n%s", r.stderr)
	}
	// go vet heads the failing unit's output with "# package".
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if !strings.HasPrefix(line, "# ") {
			lines = append(lines, line)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], `invalid value "(dlq" for flag -retrycontract.dlq-pattern`) {
		t.Errorf("stderr = %q, want the error once, alone", r.stderr)
	}
}

// TestCacheOutputIdentical: under every output format, a run replayed
// from the package cache prints what an uncached run prints, byte for
// byte, with the same status; the formats share the packages' entries.
func TestCacheOutputIdentical(t *testing.T) {
	t.Parallel()
	cacheDir := t.TempDir()
	statsFile := filepath.Join(t.TempDir(), "stats.json")
	env := []string{"XDG_CACHE_HOME=" + cacheDir, "RETRYLINT_CACHE_STATS=" + statsFile}
	formats := []string{"-format=text", "-json", "-format=sarif", "-format=github"}
	// The uncached runs read the sources alone (their stats go nowhere):
	// they run beside the cached ones.
	uncachedRuns := make(map[string]func() result)
	for _, format := range formats {
		uncachedRuns[format] = startEnv(t, root, withoutStats(env), "-cache=false", format, "./examples/...")
	}
	var entries int
	for i, format := range formats {
		uncached := uncachedRuns[format]()
		first, analyzed := runStats(t, root, env, statsFile, format, "./examples/...")
		if i > 0 && len(analyzed) != 0 {
			t.Errorf("%s, first run analyzed %v: the entries of the text run serve every format", format, analyzed)
		}
		replayed, analyzed := runStats(t, root, env, statsFile, format, "./examples/...")
		if len(analyzed) != 0 {
			t.Errorf("%s, second run analyzed %v, want everything replayed", format, analyzed)
		}
		for name, r := range map[string]result{"first": first, "replayed": replayed} {
			if r.code != uncached.code || r.stdout != uncached.stdout || r.stderr != uncached.stderr {
				t.Errorf("%s, %s run: exit %d, %d bytes out, %q; uncached: exit %d, %d bytes out, %q",
					format, name, r.code, len(r.stdout), r.stderr, uncached.code, len(uncached.stdout), uncached.stderr)
			}
		}
		found, err := os.ReadDir(filepath.Join(cacheDir, "retrylint", "pkgs"))
		if err != nil || (i > 0 && len(found) != entries) {
			t.Errorf("%s: %d cache entries, %v; want the first format's %d", format, len(found), err, entries)
		}
		entries = len(found)
	}
}
