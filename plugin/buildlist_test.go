package plugin_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// TestBuildList checks what building the plugin into golangci-lint costs:
// `golangci-lint custom` runs MVS over golangci-lint's requirements and the
// plugin's, so the plugin module's build list must hold nothing of the
// runtime's (no nats-io module: no NATS client, no embedded server) and no
// module newer than the newest golangci-lint release the READMEs name
// requires (golang.org/x/tools above all; honnef.co/go/tools should the
// linter ever use staticcheck's libraries), or building the plugin in
// would move the other linters' dependencies under them.
func TestBuildList(t *testing.T) {
	mods := goJSON[struct{ Path, Version string }](t, ".", "list", "-m", "-json", "all")
	release := newestGolangciRelease(t)
	pins := golangciPins(t, release)
	if pins["golang.org/x/tools"] == "" {
		t.Fatalf("golangci-lint %s does not require golang.org/x/tools", release)
	}
	tools := ""
	for _, m := range mods {
		if strings.HasPrefix(m.Path, "github.com/nats-io/") {
			t.Errorf("the plugin's build list holds %s %s", m.Path, m.Version)
		}
		if m.Path == "golang.org/x/tools" {
			tools = m.Version
		}
		if pin := pins[m.Path]; pin != "" && semver.Compare(m.Version, pin) > 0 {
			t.Errorf("the plugin builds with %s %s, newer than %s, which golangci-lint %s pins", m.Path, m.Version, pin, release)
		}
	}
	if tools == "" {
		t.Fatal("golang.org/x/tools is not in the plugin's build list")
	}
	t.Logf("golangci-lint %s pins golang.org/x/tools %s; the plugin builds with %s", release, pins["golang.org/x/tools"], tools)
}

// golangciPins returns the module versions golangci-lint release requires,
// by module path: its go.mod lists its whole build list.
func golangciPins(t *testing.T, release string) map[string]string {
	t.Helper()
	info := goJSON[struct{ GoMod string }](t, ".", "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+release)
	data, err := os.ReadFile(info[0].GoMod)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax(info[0].GoMod, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	pins := make(map[string]string)
	for _, r := range f.Require {
		pins[r.Mod.Path] = r.Mod.Version
	}
	return pins
}

// newestGolangciRelease returns the newest golangci-lint version the
// READMEs name ("golangci-lint v2.15.0", "version: v2.15.0" in a
// .custom-gcl.yml).
func newestGolangciRelease(t *testing.T) string {
	t.Helper()
	named := regexp.MustCompile(`(?:golangci-lint |version: )(v2\.\d+\.\d+)\b`)
	newest := ""
	for _, readme := range []string{"../README.md", "../integrations/golangci/README.md"} {
		data, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range named.FindAllSubmatch(data, -1) {
			if v := string(m[1]); semver.Compare(v, newest) > 0 {
				newest = v
			}
		}
	}
	if newest == "" {
		t.Fatal("no README names a golangci-lint release")
	}
	return newest
}

// goJSON runs the go command in dir, outside the repository's workspace
// (as a user of the module would build it), and decodes the JSON values
// it prints.
func goJSON[T any](t *testing.T, dir string, args ...string) []T {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	var values []T
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var v T
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		values = append(values, v)
	}
	if len(values) == 0 {
		t.Fatalf("go %s printed nothing", strings.Join(args, " "))
	}
	return values
}
