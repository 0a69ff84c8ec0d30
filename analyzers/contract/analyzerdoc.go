package contract

import "strings"

// AnalyzerDoc extracts the "# Analyzer NAME" section of a package doc
// written in doc.go's source, as the Analyzer.Doc text: the first line is
// the title, the rest the body. Every retrylint check builds its Doc this
// way, so the package documentation and `retrylint help` never drift apart.
func AnalyzerDoc(docGoSource string) string { return analyzerDoc(docGoSource) }

func analyzerDoc(src string) string {
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
