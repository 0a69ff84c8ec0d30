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

// TestDLQSubjectOfAnImport: a package declares a DLQ subject constant (a
// package fact), and a package that publishes to it, naming nothing else
// of a DLQ, has a writer: its gate learns the subject from the fact.
func TestDLQSubjectOfAnImport(t *testing.T) {
	t.Parallel()
	facts.Run(t, "contract/gate/subjects", "contract/gate/relay")
}
