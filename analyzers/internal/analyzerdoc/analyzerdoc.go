// Package analyzerdoc extracts an analyzer's Doc text from its package
// documentation, so that the package doc and `retrylint help` never drift
// apart.
package analyzerdoc

import "strings"

// Section extracts the "# Analyzer NAME" section of a package doc written
// in doc.go's source, as the Analyzer.Doc text: the first line is the
// title, the rest the body. Every retrylint analyzer builds its Doc this
// way.
func Section(src string) string {
	var lines []string
	in := false
	for line := range strings.SplitSeq(src, "\n") {
		if !strings.HasPrefix(line, "//") {
			if in {
				break
			}
			continue
		}
		text := strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ")
		if strings.HasPrefix(text, "# Analyzer ") {
			in = true
			continue
		}
		if in {
			if strings.HasPrefix(text, "# ") {
				break
			}
			lines = append(lines, strings.TrimPrefix(line[2:], " "))
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
