package dlqunchecked_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/dlqunchecked"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	checktest.RunStandard(t, dlqunchecked.Analyzer)
}

// TestAcrossPackages runs the check on a package that acks around the
// dead-letter helpers of another: a checked writer, a swallowing writer
// and a writer for ordering only, known through their facts (whose kinds contract/dlq/kinds tests).
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, checktest.TestData(), dlqunchecked.Analyzer, "dlqunchecked/crosspkg/outbox")
}

// TestHandlers runs the check over handlers registered with a bus that
// Acks when they return nil.
func TestHandlers(t *testing.T) {
	analysistest.Run(t, checktest.TestData(), dlqunchecked.Analyzer, "dlqunchecked/handlers")
}
