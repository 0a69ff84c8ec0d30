package release_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's root, from this package's directory.
var root = filepath.Join("..", "..")

// docs are the documents that tell users how to install or build in
// retrylint.
var docs = []string{
	"README.md",
	"runtime/README.md",
	"integrations/golangci/README.md",
	"integrations/gopls/README.md",
	"plugin/plugin.go",
}

// unpublishedInstall matches what fails while nothing is tagged: a go
// install or go get of one of the repository's modules at @latest, and a
// .custom-gcl.yml plugin entry taking the plugin module at version latest.
var unpublishedInstall = regexp.MustCompile(`github\.com/retrylint/retrylint[\w./-]*@latest|module: github\.com/retrylint/retrylint/plugin\s*(?://)?\s*version: latest`)

func read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// tagged reports whether the repository has a release tag of the linter
// module (vX.Y.Z); it skips the test where there is no git history.
func tagged(t *testing.T) bool {
	out, err := exec.Command("git", "-C", root, "tag", "--list", "v[0-9]*").Output()
	if err != nil {
		t.Skipf("no git history to read the tags from: %v", err)
	}
	return strings.TrimSpace(string(out)) != ""
}

// TestInstallLinesAreTrue: while nothing is tagged (and so nothing is on
// the module proxy), no document says @latest for this repository's
// modules: each says how to build from a checkout at a pinned commit.
func TestInstallLinesAreTrue(t *testing.T) {
	if tagged(t) {
		t.Skip("a version is tagged: @latest resolves")
	}
	for _, name := range docs {
		text := read(t, name)
		for _, m := range unpublishedInstall.FindAllStringIndex(text, -1) {
			line := strings.Count(text[:m[0]], "\n") + 1
			t.Errorf("%s:%d: %q: nothing is tagged or on the module proxy yet; say how to build it from a checkout at a pinned commit",
				name, line, text[m[0]:m[1]])
		}
	}
}

// TestREADMESaysHowToPin: the README's install section says how a team
// pins each driver today: a commit built from a checkout (go install
// ./cmd/retrylint), the golangci-lint plugin by path:, pre-commit by a
// commit SHA in rev:.
func TestREADMESaysHowToPin(t *testing.T) {
	readme := read(t, "README.md")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^git checkout <commit>`),
		regexp.MustCompile(`(?m)^go install \./cmd/retrylint`),
		regexp.MustCompile(`path: \.\./retrylint/plugin`),
		regexp.MustCompile(`rev: [0-9a-f]{40}`),
		regexp.MustCompile(`RELEASING\.md`),
	} {
		if !want.MatchString(readme) {
			t.Errorf("README.md does not match %s", want)
		}
	}
}

// TestReleaseOrder: RELEASING.md tags the linter, then the plugin that
// requires it, then the runtime, and says what CI checks first.
func TestReleaseOrder(t *testing.T) {
	text := read(t, "RELEASING.md")
	last := -1
	for _, step := range []string{"git tag v", "git tag plugin/v", "git tag runtime/v"} {
		i := strings.Index(text, step)
		if i < 0 || i < last {
			t.Errorf("RELEASING.md: %q missing or out of order", step)
		}
		last = i
	}
	for _, want := range []string{".ci/run", "GOWORK=off", "replace github.com/retrylint/retrylint => ../"} {
		if !strings.Contains(text, want) {
			t.Errorf("RELEASING.md does not mention %s", want)
		}
	}
}
