package analyzerdoc

import "testing"

func TestSection(t *testing.T) {
	src := `// Package x does things.
//
// # Analyzer x
//
// x: a title
//
// The body,
//   indented.
//
// # Options
//
// not in the section
package x
`
	want := "x: a title\n\nThe body,\n  indented."
	if got := Section(src); got != want {
		t.Errorf("Section = %q, want %q", got, want)
	}
	if got := Section("// Package y has no section.\npackage y\n"); got != "" {
		t.Errorf("Section without a section = %q, want empty", got)
	}
}
