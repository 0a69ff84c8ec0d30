package termbeforedlq_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/termbeforedlq"
)

var testdata = checktest.TestData()

// batch runs the check over the packages of all the tests below that use
// termbeforedlq.Analyzer, in one load.
var batch = checktest.NewBatch(termbeforedlq.Analyzer, checktest.StandardPackages("termbeforedlq",
	"termbeforedlq/crosspkg/dlqhelper", "termbeforedlq/crosspkg/termhelper", "termbeforedlq/crosspkg/consumer",
	"termbeforedlq/v2/dispatcher",
	"termbeforedlq/v3/kvstore", "termbeforedlq/v3/mustsink", "termbeforedlq/v3/unconfirmed",
	"termbeforedlq/v3/dlqpub", "termbeforedlq/v3/guards", "termbeforedlq/v3/nonwriter",
	"termbeforedlq/v3/nonwriterx/parking", "termbeforedlq/v3/nonwriterx/app",
)...)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	t.Parallel()
	batch.RunStandard(t)
}

func TestAcrossPackages(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "termbeforedlq/crosspkg/dlqhelper", "termbeforedlq/crosspkg/termhelper", "termbeforedlq/crosspkg/consumer")

	// A may-Term helper's call points at the helper's inner Term.
	found := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "termhelper.Settle") {
				continue
			}
			found = true
			if len(d.Related) != 2 {
				t.Fatalf("related locations = %v, want the DLQ write and the inner Term", d.Related)
			}
			write, inner := r.Pass.Fset.Position(d.Related[0].Pos), r.Pass.Fset.Position(d.Related[1].Pos)
			if filepath.Base(write.Filename) != "consumer.go" || write.Line != 34 {
				t.Errorf("DLQ write at %v, want consumer.go:34", write)
			}
			if filepath.Base(inner.Filename) != "termhelper.go" || inner.Line != 25 || inner.Column != 10 {
				t.Errorf("inner Term at %v, want termhelper.go:25:10", inner)
			}
		}
	}
	if !found {
		t.Error("no diagnostic at the call of termhelper.Settle")
	}
}

// TestDLQFuncs runs the check on a contract model configured with
// -retrycontract.dlq-funcs.
func TestDLQFuncs(t *testing.T) {
	t.Parallel()
	cfg := contract.DefaultConfig()
	if err := cfg.SetOption(contract.FlagDLQFuncs, "termbeforedlq/crosspkg/dlqhelper.Ledger.Record"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, termbeforedlq.New(contract.New(cfg)), "termbeforedlq/crosspkg/configured")
}

// TestDoc checks the analyzer's Doc is doc.go's section: a lowercase title
// line of at most 60 characters, then the body.
func TestDoc(t *testing.T) {
	title, body, _ := strings.Cut(termbeforedlq.Analyzer.Doc, "\n")
	if !strings.HasPrefix(title, "termbeforedlq: ") || len(title) > 60 {
		t.Errorf("title %q: want \"termbeforedlq: ...\" of at most 60 characters", title)
	}
	if !strings.Contains(body, "//retrylint:dlq") || !strings.Contains(body, "-retrycontract.dlq-funcs") {
		t.Error("doc does not say how to opt in with //retrylint:dlq and -retrycontract.dlq-funcs")
	}
}

// TestProfile runs the check on a made-up message library known only
// through its profile file: its terminate method is Discard, its publish
// Send.
func TestProfile(t *testing.T) {
	t.Parallel()
	cfg := contract.DefaultConfig()
	if err := cfg.SetOption(contract.FlagProfiles, filepath.Join(testdata, "src", "quemq", "profile.json")); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, termbeforedlq.New(contract.New(cfg)), "termbeforedlq/profile")
}

// TestContractV2Writes runs the check over the version 2 DLQ-write shapes:
// dead-letter destinations passed as arguments (a Knative-like
// dispatcher), writer kinds across packages (checked, ordering only,
// swallowing), and the processGuarded false positive of version 1.
func TestContractV2Writes(t *testing.T) {
	t.Parallel()
	batch.Run(t, "termbeforedlq/v2/dispatcher")
}

// TestContractV3Writes runs the check over the DLQ writes of contract
// version 3: a key-value bucket's or object store's write on a
// dead-letter field.
func TestContractV3Writes(t *testing.T) {
	t.Parallel()
	batch.Run(t, "termbeforedlq/v3/kvstore")
}

// TestContractV3Unconfirmed runs the check over unconfirmed DLQ writes: a
// sink that returns no error, a core NATS publish, an async publish whose
// future is not awaited, and their look-alikes (a synchronous writer of
// another package, known through its facts).
func TestContractV3Unconfirmed(t *testing.T) {
	t.Parallel()
	batch.Run(t, "termbeforedlq/v3/mustsink", "termbeforedlq/v3/unconfirmed")
}

// TestContractV3Guards runs the check over writers (another package's,
// through their facts) whose nil guard returns nil without writing
// (swallowing), and their look-alikes.
func TestContractV3Guards(t *testing.T) {
	t.Parallel()
	batch.Run(t, "termbeforedlq/v3/dlqpub", "termbeforedlq/v3/guards")
}

// TestContractV3NamedNonWriters runs the check over functions named like
// DLQ writers that Term or Ack their message without writing it anywhere,
// and their look-alikes.
func TestContractV3NamedNonWriters(t *testing.T) {
	t.Parallel()
	batch.Run(t, "termbeforedlq/v3/nonwriter")
	// Across packages, through the writer fact's NonWriter kind.
	batch.Run(t, "termbeforedlq/v3/nonwriterx/parking", "termbeforedlq/v3/nonwriterx/app")
}
