package dlqunchecked_test

import (
	"testing"

	"github.com/retrylint/retrylint/analyzers/dlqunchecked"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
)

// batch runs the check over the packages of all the tests below, in one
// load.
var batch = checktest.NewBatch(dlqunchecked.Analyzer, checktest.StandardPackages("dlqunchecked",
	"dlqunchecked/crosspkg/outbox",
	"dlqunchecked/crosspkg/relay",
	"dlqunchecked/handlers",
	"dlqunchecked/v3/kvstore",
	"dlqunchecked/v3/unconfirmed",
	"dlqunchecked/redelivery",
	"dlqunchecked/foreign/park", "dlqunchecked/foreign/bus", "dlqunchecked/foreign/app",
	"dlqunchecked/eventfeed/app",
)...)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	t.Parallel()
	batch.RunStandard(t)
}

// TestAcrossPackages runs the check on a package that acks around the
// dead-letter helpers of another: a checked writer, a swallowing writer
// and a writer for ordering only, known through their facts (whose kinds contract/dlq/kinds tests).
func TestAcrossPackages(t *testing.T) {
	t.Parallel()
	batch.Run(t, "dlqunchecked/crosspkg/outbox")
}

// TestSubjectConstantOfAnImport: a publish names a dead-letter subject
// only through a constant of another package; a look-alike publishes to
// another constant of it.
func TestSubjectConstantOfAnImport(t *testing.T) {
	t.Parallel()
	batch.Run(t, "dlqunchecked/crosspkg/relay")
}

// TestHandlers runs the check over handlers registered with a bus that
// Acks when they return nil.
func TestHandlers(t *testing.T) {
	t.Parallel()
	batch.Run(t, "dlqunchecked/handlers")
}

// TestForeignHandlerFacts: functions that could be handlers registered
// elsewhere carry the returns that would lose a DLQ write as facts.
func TestForeignHandlerFacts(t *testing.T) {
	t.Parallel()
	batch.Run(t, "dlqunchecked/foreign/park")
}

// TestForeignHandlers: the package that registers park's handlers with a
// bus that Acks on nil reports what their facts record at the
// registration, with the return and the DLQ write as related locations;
// the look-alikes stay quiet.
func TestForeignHandlers(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "dlqunchecked/foreign/app")
	checktest.CheckForeign(t, results, "park.go", "the DLQ write")
}

// TestMessagelessMiddleware: parking middleware of another package whose
// closure takes a decoded event and no message is the handler where its
// result is registered: the closure's nil after an unchecked DLQ write is
// reported at the registration; a checked write and a tap that Naks on
// nil stay quiet.
func TestMessagelessMiddleware(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "dlqunchecked/eventfeed/app")
	checktest.CheckForeign(t, results, "guard.go", "the DLQ write")
}

// TestContractV3Writes runs the check over the DLQ writes of contract
// version 3: a key-value bucket's Put on a dead-letter field, and a
// deferred helper (another package's) that always Acks.
func TestContractV3Writes(t *testing.T) {
	t.Parallel()
	batch.Run(t, "dlqunchecked/v3/kvstore")
}

// TestContractV3Unconfirmed runs the check over Acks after unconfirmed
// DLQ writes (a sink that returns no error, a core NATS publish, an async
// publish whose future is not awaited) and their look-alikes.
func TestContractV3Unconfirmed(t *testing.T) {
	t.Parallel()
	batch.Run(t, "dlqunchecked/v3/unconfirmed")
}

// TestRedelivery: settlements of messages nothing redelivers (core NATS,
// ordered and AckNone consumers) are not judged where their origin shows;
// a durable consumer's are.
func TestRedelivery(t *testing.T) {
	t.Parallel()
	batch.Run(t, "dlqunchecked/redelivery")
}
