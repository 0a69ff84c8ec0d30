package poisonack_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/poisonack"
)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	checktest.RunStandard(t, poisonack.Analyzer)
}

// TestAcrossPackages runs the check on a worker that decodes with another
// package's decode function and dead-letters with its writer, and on a
// package that writes no DLQ at all (a Term on decode failure stays quiet
// there).
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, checktest.TestData(), poisonack.Analyzer, "poisonack/crosspkg/worker", "poisonack/nodlq")
}

// TestHandlers runs the check over handlers registered with a bus that
// Acks when they return nil.
func TestHandlers(t *testing.T) {
	analysistest.Run(t, checktest.TestData(), poisonack.Analyzer, "poisonack/handlers")
}

// TestPayloadFacts checks the fact of a bus that hands its handlers the
// payload.
func TestPayloadFacts(t *testing.T) {
	analysistest.Run(t, checktest.TestData(), contract.Analyzer, "poisonack/databus")
}

// TestForeignHandlerFacts: functions that could be handlers registered
// elsewhere carry their decode-failure returns as facts. (The report, at
// the return in the declaring package's file, comes from the registering
// package's pass, which analysistest cannot match to a file of another
// package: cmd/retrylint's TestForeignHandler checks it.)
func TestForeignHandlerFacts(t *testing.T) {
	analysistest.Run(t, checktest.TestData(), poisonack.Analyzer, "poisonack/foreign/orders")
}
