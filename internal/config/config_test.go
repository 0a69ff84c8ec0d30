package config_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzers/suite"
	"github.com/retrylint/retrylint/internal/config"
)

func write(t *testing.T, dir, text string) string {
	t.Helper()
	p := filepath.Join(dir, config.FileName)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestArgs(t *testing.T) {
	p := write(t, t.TempDir(), `
retrycontract:
  dlq-funcs: [example.com/bus.Sink.Park, example.com/bus.Park]
  dlq-pattern: "(?i)(dlq|parking)"
barenak:
  unclassified: false
disable: [poisonack, retrylint]
`)
	args, err := config.Args(p, suite.Roots())
	if err != nil {
		t.Fatal(err)
	}
	// Each dlq-funcs entry carries the place that named it, for the
	// message that reports an entry naming nothing.
	want := []string{
		"-retrycontract.dlq-funcs=example.com/bus.Sink.Park@" + p + ":3,example.com/bus.Park@" + p + ":3",
		"-retrycontract.dlq-pattern=(?i)(dlq|parking)",
		"-barenak.unclassified=false",
		"-poisonack=false",
		"-retrylint=false",
	}
	if !slices.Equal(args, want) {
		t.Fatalf("Args =\n%q\nwant\n%q", args, want)
	}
}

// TestDecodeFuncsOrigins: decode-funcs entries carry the place that named
// them, as dlq-funcs entries do, and are validated alike.
func TestDecodeFuncsOrigins(t *testing.T) {
	p := write(t, t.TempDir(), "retrycontract:\n  decode-funcs: [example.com/codec.Open, example.com/codec.Envelope.Unseal]\n")
	args, err := config.Args(p, suite.Roots())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-retrycontract.decode-funcs=example.com/codec.Open@" + p + ":2,example.com/codec.Envelope.Unseal@" + p + ":2"}
	if !slices.Equal(args, want) {
		t.Fatalf("Args =\n%q\nwant\n%q", args, want)
	}
	bad := write(t, t.TempDir(), "retrycontract:\n  decode-funcs: [notaname]\n")
	if _, err := config.Args(bad, suite.Roots()); err == nil || !strings.Contains(err.Error(), bad+":2: retrycontract.decode-funcs: ") {
		t.Errorf("malformed entry: %v", err)
	}
}

// TestBadFiles: each kind of bad file is an error naming the file and line.
func TestBadFiles(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"bogus: 1\n", `:1: unknown key "bogus": want an analyzer name (`},
		{"barenack:\n  unclassified: false\n", `:1: unknown key "barenack"; correct it to barenak: want an analyzer name (`},
		{"exlude: [gen]\n", `:1: unknown key "exlude"; correct it to exclude: want an analyzer name (`},
		{"barenak:\n  strikt: true\n", `:2: barenak has no option "strikt" (options: exclude, unclassified)`},
		{"barenak:\n  unclassified: maybe\n", `:2: barenak.unclassified: `},
		{"barenak:\n  strict: true\n", `:2: barenak.strict was removed: bare Naks on unclassified errors are reported by default now; set barenak.unclassified: false`},
		{"retrycontract:\n  dlq-pattern: \"([\"\n", `:2: retrycontract.dlq-pattern: `},
		{"retrycontract:\n  dlq-funcs: [notaname]\n", `:2: retrycontract.dlq-funcs: `},
		{"disable: [barenek]\n", `:1: disable: no analyzer named "barenek"`},
		{"barenak: true\n", `:1: barenak: want a mapping`},
		{"- a\n- b\n", `:1: want a mapping`},
		{"barenak: [\n", `yaml:`},
	} {
		p := write(t, t.TempDir(), tc.text)
		_, err := config.Args(p, suite.Roots())
		if err == nil || !strings.HasPrefix(err.Error(), p) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %s%s", tc.text, err, p, tc.want)
		}
	}
}

// TestFind: the file in the directory or the nearest above it.
func TestFind(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "services", "orders")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := config.Find(sub); got != "" && !strings.HasPrefix(got, root) {
		// A file above the temporary directory is the machine's, not ours.
		t.Logf("found %s outside the test tree", got)
	}
	p := write(t, root, "barenak:\n  unclassified: false\n")
	if got := config.Find(sub); got != p {
		t.Fatalf("Find(%s) = %q, want %q", sub, got, p)
	}
	q := write(t, sub, "disable: [barenak]\n")
	if got := config.Find(sub); got != q {
		t.Fatalf("Find(%s) = %q, want the nearer %q", sub, got, q)
	}
}

// TestProfilePathsRelativeToFile: a relative profile path in the file
// names the file beside it, whatever the working directory; an absolute
// one is kept; the list is split as the flag splits it.
func TestProfilePathsRelativeToFile(t *testing.T) {
	root := t.TempDir()
	profile := `{"name": "quemq", "messages": [{"path": "example.com/quemq", "name": "Delivery"}],
  "ack_methods": {"Accept": "done", "RequeueAfter": "retry-later"}, "packages": ["example.com/quemq"]}`
	if err := os.MkdirAll(filepath.Join(root, "profiles"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"profiles/q.json", "abs.json"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(profile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := filepath.Join(root, "abs.json")
	p := write(t, root, "retrycontract:\n  profiles: profiles/q.json, "+abs+"\n")
	sub := filepath.Join(root, "services", "orders")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub) // the profiles are not beside the working directory
	args, err := config.Args(p, suite.Roots())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-retrycontract.profiles=" + filepath.Join(root, "profiles", "q.json") + "," + abs}
	if !slices.Equal(args, want) {
		t.Fatalf("Args =\n%q\nwant\n%q", args, want)
	}
	// A relative -config path still resolves against the file's directory.
	rel, err := filepath.Rel(sub, p)
	if err != nil {
		t.Fatal(err)
	}
	if args, err := config.Args(rel, suite.Roots()); err != nil || !slices.Equal(args, want) {
		t.Fatalf("Args(%s) = %q, %v; want %q", rel, args, err, want)
	}
}

// TestExclude: exclude globs, top-level and per check, become the
// model's and the check's -exclude flags, absolute against the file's
// directory; a malformed glob and one that matches nothing are errors
// naming the file and line.
func TestExclude(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"gen", "internal/legacy"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := write(t, root, `
exclude: [gen, "**/*_mock.go"]
barenak:
  exclude: internal/legacy/*.go
`)
	args, err := config.Args(p, suite.Roots())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"-retrycontract.exclude=" + filepath.Join(root, "gen") + "," + filepath.Join(root, "**/*_mock.go"),
		"-barenak.exclude=" + filepath.Join(root, "internal/legacy/*.go"),
	}
	if !slices.Equal(args, want) {
		t.Fatalf("Args =\n%q\nwant\n%q", args, want)
	}
	for _, tc := range []struct{ text, want string }{
		{"exclude: [gen, \"gen/[x\"]\n", `:1: exclude: glob "`},
		{"exclude:\n  - gen\n  - interal/legacy/**\n", `:3: exclude: "interal/legacy/**" matches nothing: ` + filepath.Join(root, "interal", "legacy") + ` does not exist`},
		{"barenak:\n  exclude: [gne]\n", `:2: exclude: "gne" matches nothing`},
		{"exclude: {a: b}\n", `:1: exclude: want a path glob or a list of them`},
		{"exclude: [gen]\nretrycontract:\n  exclude: [gen]\n", `:3: retrycontract.exclude: the file's exclude (line 1) says it already`},
		{"retrylint:\n  exclude: [gen]\n", `:2: retrylint has no option "exclude"`},
	} {
		p := write(t, root, tc.text)
		_, err := config.Args(p, suite.Roots())
		if err == nil || !strings.HasPrefix(err.Error(), p) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %s%s", tc.text, err, p, tc.want)
		}
	}
}
