package contract_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
)

// TestDLQAndTermFacts checks which functions get "writes DLQ" and "may Term
// param N" facts, within a package and across an import.
func TestDLQAndTermFacts(t *testing.T) {
	analysistest.Run(t, testdata, contract.Analyzer, "contract/dlq/sink", "contract/dlq/app", "contract/dlq/kinds")
}
