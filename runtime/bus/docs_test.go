package bus_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
)

// TestDocsSayWhatTheRunnerDoes: the package doc, the option docs and the
// runtime README state ConsumerConfig's ack wait as DefaultAckWait, and
// every statement of the NakWithDelay after a failed DLQ write says that
// it doubles (it did say ten minutes and a flat 5s), there and in the
// contract's table (the repository's README and docs/contract.md).
func TestDocsSayWhatTheRunnerDoes(t *testing.T) {
	minutes := map[string]float64{"one": 1, "a": 1, "1": 1, "two": 2, "five": 5, "ten": 10, "10": 10}
	ackWait := regexp.MustCompile(`(?i)(?:\b(\w+)[ -]minutes? ack wait|ack wait of ConsumerConfig is (\w+) minutes?)`)
	failedWrite := regexp.MustCompile(`(?i)(DLQ write fail|write fails).*NakWithDelay\(`)
	for _, file := range []string{"doc.go", "options.go", "../README.md", "../../README.md", "../../docs/contract.md"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, para := range strings.Split(string(b), "\n\n") {
			text := strings.Join(strings.Fields(strings.ReplaceAll(para, "//", " ")), " ")
			if strings.Contains(text, "ConsumerConfig") {
				for _, m := range ackWait.FindAllStringSubmatch(text, -1) {
					word := strings.ToLower(m[1] + m[2])
					if n, ok := minutes[word]; !ok || time.Duration(n*float64(time.Minute)) != bus.DefaultAckWait {
						t.Errorf("%s, paragraph %d: %q, but ConsumerConfig's ack wait is %v", file, i+1, m[0], bus.DefaultAckWait)
					}
				}
			}
			for _, line := range statements(para, text) {
				if failedWrite.MatchString(line) && !strings.Contains(line, "doubl") {
					t.Errorf("%s, paragraph %d: %q does not say the delay doubles per failed write", file, i+1, line)
				}
			}
		}
	}
}

// statements splits a paragraph, text being its words on one line, into
// what one statement says: each row of a Markdown table, each sentence
// otherwise.
func statements(para, text string) []string {
	if strings.HasPrefix(strings.TrimSpace(para), "|") {
		return strings.Split(para, "\n")
	}
	return strings.Split(text, ". ")
}
