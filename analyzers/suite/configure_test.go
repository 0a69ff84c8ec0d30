package suite_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzers/suite"
)

// TestConfigure: the gopls build's configuration, from the file found
// from a directory.
func TestConfigure(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "svc")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".retrylint.yaml")
	if err := os.WriteFile(file, []byte("disable: [poisonack, retrylint]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path, disabled, err := suite.Configure(sub)
	if err != nil || path != file || !slices.Equal(disabled, []string{"poisonack", "retrylint"}) {
		t.Fatalf("Configure = %q, %v, %v", path, disabled, err)
	}
	if err := os.WriteFile(file, []byte("retrycontract:\n  dlq-pattern: \"([\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := suite.Configure(sub); err == nil || !strings.Contains(err.Error(), file+":2: retrycontract.dlq-pattern") {
		t.Fatalf("bad file: %v", err)
	}
}
