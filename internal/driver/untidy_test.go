package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzers/suite"
)

// TestUntidyForTests: a module whose go.mod is untidy only for its tests'
// imports (go vet stops: "updates to go.mod needed") is analyzed without
// its test files, with one line saying so; the exit status is the
// findings'.
func TestUntidyForTests(t *testing.T) {
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/untidy\n\ngo 1.26.0\n\nrequire golang.org/x/tools v0.52.0\n",
		"go.sum": string(sum),
		"fetch.go": `package untidy

import (
	"fmt"
	"time"
)

type throttled struct{}

func (throttled) Error() string               { return "throttled" }
func (throttled) RetryDelay() time.Duration { return time.Second }

func fetch() error { return throttled{} }

func Handle() error {
	if err := fetch(); err != nil {
		return fmt.Errorf("fetch: %v", err)
	}
	return nil
}
`,
		// x/sync is in the module graph (x/tools requires it) but not
		// required by go.mod: only the test imports it.
		"fetch_test.go": "package untidy\n\nimport (\n\t\"testing\"\n\n\t\"golang.org/x/sync/errgroup\"\n)\n\nfunc TestGroup(t *testing.T) { var g errgroup.Group; _ = g.Wait() }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=readonly")
	t.Setenv("GOPROXY", "off")
	var stdout, stderr bytes.Buffer
	code := Main("retrylint", []string{"-cache=false", "./..."}, suite.Roots(), &stdout, &stderr)
	if code != ExitFindings {
		t.Errorf("exit %d, want %d (findings); stderr:\n%s", code, ExitFindings, stderr.String())
	}
	if !strings.Contains(stdout.String(), "fetch.go:17:") {
		t.Errorf("the finding in the package is missing; stdout:\n%s", stdout.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "analyzed without the test files") || !strings.Contains(lines[0], "updates to go.mod needed") {
		t.Errorf("stderr = %q, want one line naming the cause", stderr.String())
	}
}
