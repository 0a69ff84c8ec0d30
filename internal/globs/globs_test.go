package globs_test

import (
	"testing"

	"github.com/retrylint/retrylint/internal/globs"
)

// TestGlobs: what an exclude glob matches.
func TestGlobs(t *testing.T) {
	for _, tc := range []struct {
		globs string
		file  string
		want  bool
	}{
		{"/m/gen", "/m/gen/x.go", true},
		{"/m/gen", "/m/gen/sub/x.go", true},
		{"/m/gen", "/m/generated/x.go", false},
		{"/m/gen/", "/m/gen/x.go", true},
		{"/m/gen/*.go", "/m/gen/x.go", true},
		{"/m/gen/*.go", "/m/gen/sub/x.go", false},
		{"/m/**/mocks", "/m/a/b/mocks/x.go", true},
		{"/m/**/mocks", "/m/mocks/x.go", true},
		{"/m/**/*_mock.go", "/m/a/b_mock.go", true},
		{"/m/**/*_mock.go", "/m/a/b.go", false},
		{"/m/legacy_*.go", "/m/legacy_orders.go", true},
		{"/m/legacy_*.go", "/n/legacy_orders.go", false},
		{"gen", "/m/a/gen/x.go", true},
		{"gen/*.go", "/m/gen/x.go", true},
		{"gen/*.go", "/m/agen/x.go", false},
		{"/a/x.go,/m/x.go", "/m/x.go", true},
		{"", "/m/x.go", false},
	} {
		var g globs.Globs
		if err := g.Set(tc.globs); err != nil {
			t.Fatalf("%q: %v", tc.globs, err)
		}
		if got := g.Match(tc.file); got != tc.want {
			t.Errorf("globs %q, file %s: match %v, want %v", tc.globs, tc.file, got, tc.want)
		}
	}
	var g globs.Globs
	if err := g.Set("gen/[x"); err == nil {
		t.Error("a malformed glob is accepted")
	}
	if got := globs.Fixed("internal/legacy/**/*.go"); got != "internal/legacy" {
		t.Errorf("Fixed = %q", got)
	}
}
