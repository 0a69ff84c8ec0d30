package poisonack_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/poisonack"
)

// batch runs the check over the packages of all the tests below that use
// poisonack.Analyzer, in one load.
var batch = checktest.NewBatch(poisonack.Analyzer, checktest.StandardPackages("poisonack",
	"poisonack/crosspkg/worker", "poisonack/nodlq",
	"poisonack/handlers",
	"poisonack/foreign/orders", "poisonack/foreign/bus", "poisonack/foreign/app",
	"poisonack/decoders",
	"poisonack/redelivery",
	"poisonack/helpers/app",
)...)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	t.Parallel()
	batch.RunStandard(t)
}

// TestAcrossPackages runs the check on a worker that decodes with another
// package's decode function and dead-letters with its writer, and on a
// package that writes no DLQ at all (a Term on decode failure stays quiet
// there).
func TestAcrossPackages(t *testing.T) {
	t.Parallel()
	batch.Run(t, "poisonack/crosspkg/worker", "poisonack/nodlq")
}

// TestHandlers runs the check over handlers registered with a bus that
// Acks when they return nil.
func TestHandlers(t *testing.T) {
	t.Parallel()
	batch.Run(t, "poisonack/handlers")
}

// TestPayloadFacts checks the fact of a bus that hands its handlers the
// payload.
func TestPayloadFacts(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, checktest.TestData(), contract.Analyzer, "poisonack/databus")
}

// TestForeignHandlerFacts: functions that could be handlers registered
// elsewhere carry their decode-failure returns as facts.
func TestForeignHandlerFacts(t *testing.T) {
	t.Parallel()
	batch.Run(t, "poisonack/foreign/orders")
}

// TestForeignHandlers: the package that registers orders' handlers with
// a bus that Acks on nil reports their decode-failure returns at the
// registration, with the return and the decode as related locations; the
// look-alikes stay quiet.
func TestForeignHandlers(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "poisonack/foreign/app")
	checktest.CheckForeign(t, results, "orders.go", "the decode")
}

// TestDecoderTable runs the check over the decoders of the contract's
// table (msgpack, cbor, yaml.v3, goavro, CloudEvents) and the other calls
// of the same libraries, which stay quiet.
func TestDecoderTable(t *testing.T) {
	t.Parallel()
	batch.Run(t, "poisonack/decoders")
}

// TestDecodeFuncs runs the check with a decoder named in decode-funcs,
// whose name matches no pattern; without it the package is quiet.
func TestDecodeFuncs(t *testing.T) {
	t.Parallel()
	cfg := contract.DefaultConfig()
	if err := cfg.SetOption(contract.FlagDecodeFuncs, "poisonack/configured/codec.Open"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, checktest.TestData(), poisonack.New(contract.New(cfg)), "poisonack/configured")
	for _, r := range analysistest.Run(&quiet{T: t}, checktest.TestData(), poisonack.Analyzer, "poisonack/configured") {
		if len(r.Diagnostics) > 0 {
			t.Errorf("without decode-funcs: %s", r.Diagnostics[0].Message)
		}
	}
}

// quiet swallows analysistest's complaints about unmatched want comments.
type quiet struct{ *testing.T }

func (q *quiet) Errorf(format string, args ...any) {}

// TestProfileDecode runs the check with the quemq profile, whose Bind
// decodes a delivery's body.
func TestProfileDecode(t *testing.T) {
	t.Parallel()
	cfg := contract.DefaultConfig()
	if err := cfg.SetOption(contract.FlagProfiles, filepath.Join(checktest.TestData(), "src", "quemq", "profile.json")); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, checktest.TestData(), poisonack.New(contract.New(cfg)), "poisonack/profile")
}

// TestRedelivery: settlements of messages nothing redelivers (core NATS,
// ordered and AckNone consumers) are not judged where their origin shows;
// a durable consumer's are.
func TestRedelivery(t *testing.T) {
	t.Parallel()
	batch.Run(t, "poisonack/redelivery")
}

// TestHelpers runs the check over helpers two calls deep and helpers
// whose settlement depends on the error they are given, judged with the
// argument.
func TestHelpers(t *testing.T) {
	t.Parallel()
	batch.Run(t, "poisonack/helpers/app")
}
