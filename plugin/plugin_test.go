package plugin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/plugin"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestSettings(t *testing.T) {
	p, err := plugin.New(map[string]any{
		"dlq-funcs":   []string{"example.com/bus.Sink.Park"},
		"dlq-pattern": "(?i)parking",
	})
	if err != nil {
		t.Fatal(err)
	}
	analyzers, err := p.BuildAnalyzers()
	if err != nil || len(analyzers) == 0 {
		t.Fatalf("BuildAnalyzers: %v, %d analyzers", err, len(analyzers))
	}
	if p.GetLoadMode() != "typesinfo" {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
	p, err = plugin.New(map[string]any{"disable": []string{"retryflatten"}})
	if err != nil {
		t.Fatal(err)
	}
	analyzers, _ = p.BuildAnalyzers()
	for _, a := range analyzers {
		if a.Name == "retryflatten" {
			t.Error("disabled check still built")
		}
	}
	if last := analyzers[len(analyzers)-1]; last.Name != "retrylint" {
		t.Errorf("the last analyzer is %s, want the retrylint meta check", last.Name)
	}
	p, err = plugin.New(map[string]any{"disable": []string{"retrylint"}})
	if err != nil {
		t.Fatal(err)
	}
	analyzers, _ = p.BuildAnalyzers()
	for _, a := range analyzers {
		if a.Name == "retrylint" {
			t.Error("disabled meta check still built")
		}
	}
}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]any
		want     string
	}{
		{map[string]any{"dlq-patern": "x"}, `unknown field "dlq-patern"`},
		{map[string]any{"dlq-pattern": 3}, "dlq-pattern"},
		{map[string]any{"dlq-pattern": "(dlq"}, "invalid regexp"},
		{map[string]any{"dlq-funcs": []string{"Park"}}, "malformed function name"},
		{map[string]any{"disable": []string{"nosuch"}}, `no check named "nosuch"`},
		{map[string]any{"checks": map[string]any{"retryflatten": map[string]any{"bogus": 1}}}, `unknown option "bogus"`},
	} {
		_, err := plugin.New(tc.settings)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v) = %v, want an error containing %q", tc.settings, err, tc.want)
		}
	}
}

// TestNolintIsLeftToGolangci: in golangci-lint the analyzers report what a
// //nolint:retrylint covers (golangci-lint drops it, and nolintlint sees
// the directive used); //retrylint:ignore still silences.
func TestNolintIsLeftToGolangci(t *testing.T) {
	analyzers, err := plugin.Settings{}.Analyzers()
	if err != nil {
		t.Fatal(err)
	}
	var flatten *analysis.Analyzer
	for _, a := range analyzers {
		if a.Name == "retryflatten" {
			flatten = a
		}
	}
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, flatten, "nolintplugin")
}

// TestConfigFileUnderSettings: the plugin reads .retrylint.yaml from the
// directory golangci-lint runs in, and its own settings override it.
func TestConfigFileUnderSettings(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".retrylint.yaml"), []byte("disable: [retryflatten]\nbarenak:\n  unclassified: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	unclassified := func(analyzers []*analysis.Analyzer) (string, bool) {
		flatten := false
		value := ""
		for _, a := range analyzers {
			flatten = flatten || a.Name == "retryflatten"
			if a.Name == "barenak" {
				value = a.Flags.Lookup("unclassified").Value.String()
			}
		}
		return value, flatten
	}
	fromFile, err := plugin.Settings{}.Analyzers()
	if err != nil {
		t.Fatal(err)
	}
	if v, flatten := unclassified(fromFile); v != "false" || flatten {
		t.Errorf("from the file: barenak.unclassified=%s, retryflatten built %v", v, flatten)
	}
	overridden, err := plugin.Settings{Checks: map[string]map[string]any{"barenak": {"unclassified": true}}}.Analyzers()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := unclassified(overridden); v != "true" {
		t.Errorf("settings over the file: barenak.unclassified=%s", v)
	}
	// The removed strict option fails with one line naming its replacement.
	_, err = plugin.Settings{Checks: map[string]map[string]any{"barenak": {"strict": true}}}.Analyzers()
	if err == nil || !strings.Contains(err.Error(), "barenak.strict was removed") || !strings.Contains(err.Error(), "barenak.unclassified: false") {
		t.Errorf("settings naming barenak.strict: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".retrylint.yaml"), []byte("bogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (plugin.Settings{}).Analyzers(); err == nil || !strings.Contains(err.Error(), `.retrylint.yaml:1: unknown key "bogus"`) {
		t.Errorf("bad file: %v", err)
	}
}
