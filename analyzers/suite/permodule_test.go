package suite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/suite"
)

// TestPerModule: the gopls build analyzes each package with the
// .retrylint.yaml of its own module, read when the package is analyzed:
// the defaults (plain), an option value (options: carrier-method), a
// disabled check (quiet), and a file that does not load (typo: one
// diagnostic at the package clause, no check runs).
func TestPerModule(t *testing.T) {
	analyzers := suite.PerModule()
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, named(t, analyzers, "retryflatten"), "permodule/plain", "permodule/options", "permodule/quiet")
	analysistest.Run(t, testdata, named(t, analyzers, "retrylint"), "permodule/typo")
	// In typo, retryflatten reports nothing: the one complaint is the
	// unmatched expectation of the meta check's diagnostic.
	var rec recorder
	analysistest.Run(&rec, testdata, named(t, analyzers, "retryflatten"), "permodule/typo")
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "no diagnostic was reported matching `retrylint configuration") {
		t.Errorf("retryflatten on a package whose configuration does not load:\n%s", strings.Join(rec.errs, "\n"))
	}
}

// recorder is an analysistest.Testing that keeps the errors.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestPerModuleNames: the dispatchers carry the checks' names, in the
// suite's order, and the meta check last, so gopls' "analyses" settings
// and diagnostics' sources are the command line's check names.
func TestPerModuleNames(t *testing.T) {
	var want, got []string
	for _, a := range suite.All() {
		want = append(want, a.Name)
	}
	for _, a := range suite.PerModule() {
		got = append(got, a.Name)
	}
	if len(got) != len(want) {
		t.Fatalf("PerModule: %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("PerModule: %v, want %v", got, want)
		}
	}
	if err := analysis.Validate(suite.PerModule()); err != nil {
		t.Fatal(err)
	}
}

// TestConfigKey: the key of a directory's configuration changes with the
// file's content and with the profiles it names, and is "" without a file.
func TestConfigKey(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "svc", "handlers")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if k := suite.ConfigKey(sub); k != "" {
		t.Fatalf("no file: key %q", k)
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".retrylint.yaml", "retrycontract:\n  dlq-funcs: [example.com/bus.Sink.Park]\n")
	first := suite.ConfigKey(sub)
	if first == "" || suite.ConfigKey(sub) != first {
		t.Fatalf("key %q, then %q", first, suite.ConfigKey(sub))
	}
	write(".retrylint.yaml", "retrycontract:\n  dlq-funcs: [example.com/bus.Sink.Keep]\n")
	second := suite.ConfigKey(sub)
	if second == first {
		t.Errorf("dlq-funcs changed, the key did not: %q", first)
	}
	profile := `{"name": "quemq", "messages": [{"path": "example.com/quemq", "name": "Delivery"}],
		"ack_methods": {"Accept": "done", "Requeue": "retry-now", "Discard": "terminate"}, "packages": ["example.com/quemq"]}`
	write("quemq.json", profile)
	write(".retrylint.yaml", "retrycontract:\n  profiles: [quemq.json]\n")
	third := suite.ConfigKey(sub)
	write("quemq.json", strings.Replace(profile, `"Discard"`, `"Drop"`, 1))
	if suite.ConfigKey(sub) == third {
		t.Errorf("the profile changed, the key did not: %q", third)
	}
}

func named(t *testing.T, analyzers []*analysis.Analyzer, name string) *analysis.Analyzer {
	t.Helper()
	for _, a := range analyzers {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no analyzer %s", name)
	return nil
}
