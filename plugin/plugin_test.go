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

// TestRelatedFolded: under golangci-lint a related location would be an
// issue of its own, out of reach of the //nolint at the finding; the
// plugin's checks carry them in the message instead and report none.
func TestRelatedFolded(t *testing.T) {
	analyzers, err := plugin.Settings{}.Analyzers()
	if err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range analysistest.Run(t, testdata, byName(t, analyzers, "barenak"), "pluginrelated/consumer") {
		for _, d := range r.Diagnostics {
			if len(d.Related) > 0 {
				t.Errorf("%s: diagnostic with %d related locations: %s", r.Pass.Fset.Position(d.Pos), len(d.Related), d.Message)
			}
		}
	}
	analysistest.Run(t, testdata, byName(t, analyzers, "retryflatten"), "pluginrelated/flatten")
}

// TestPerCheckLinter: each check is a linter of its own too (so that
// //nolint:barenak names a linter), running that check only, with the
// same settings, on a contract model of its own name.
func TestPerCheckLinter(t *testing.T) {
	p, err := plugin.NewCheck("barenak")(map[string]any{
		"dlq-funcs": []string{"example.com/bus.Sink.Park"},
		"checks":    map[string]any{"barenak": map[string]any{"unclassified": false}, "retryflatten": map[string]any{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	analyzers, err := p.BuildAnalyzers()
	if err != nil || len(analyzers) != 1 || analyzers[0].Name != "barenak" {
		t.Fatalf("BuildAnalyzers: %v, %v; want barenak alone", err, analyzers)
	}
	a := analyzers[0]
	if v := a.Flags.Lookup("unclassified").Value.String(); v != "false" {
		t.Errorf("barenak.unclassified = %s, want the settings' false", v)
	}
	var model []string
	for _, r := range a.Requires {
		if strings.HasPrefix(r.Name, "retrycontract") {
			model = append(model, r.Name)
		}
	}
	if len(model) != 1 || model[0] != "retrycontract_barenak" {
		t.Errorf("barenak's model: %v, want retrycontract_barenak (a name of its own for golangci-lint's fact cache)", model)
	}
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, a, "pluginrelated/consumer") // related locations folded here too
	// Settings shared with retrylint's, which disable the check there
	// because it runs as a linter of its own, leave it on here.
	p, err = plugin.NewCheck("barenak")(map[string]any{"disable": []string{"barenak", "retryflatten"}})
	if err != nil {
		t.Fatal(err)
	}
	if analyzers, _ := p.BuildAnalyzers(); len(analyzers) != 1 || analyzers[0].Name != "barenak" {
		t.Errorf("with the shared disable: [barenak, retryflatten]: %v, want barenak", analyzers)
	}
	// .retrylint.yaml's disable holds for every driver, this linter too.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".retrylint.yaml"), []byte("disable: [barenak]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	p, err = plugin.NewCheck("barenak")(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if analyzers, _ := p.BuildAnalyzers(); len(analyzers) != 0 {
		t.Errorf("with the file's disable: [barenak]: %v, want nothing", analyzers)
	}
}

func byName(t *testing.T, analyzers []*analysis.Analyzer, name string) *analysis.Analyzer {
	t.Helper()
	for _, a := range analyzers {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no analyzer %s", name)
	return nil
}
