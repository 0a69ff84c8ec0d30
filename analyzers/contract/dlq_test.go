package contract_test

import (
	"testing"
)

// TestDLQAndTermFacts checks which functions get "writes DLQ" and "may Term
// param N" facts, within a package and across an import.
func TestDLQAndTermFacts(t *testing.T) {
	t.Parallel()
	facts.Run(t, "contract/dlq/sink", "contract/dlq/app", "contract/dlq/kinds")
}
