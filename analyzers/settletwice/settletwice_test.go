package settletwice_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/settletwice"
)

// batch runs the check over the packages of all the tests below, in one
// load.
var batch = checktest.NewBatch(settletwice.Analyzer, checktest.StandardPackages("settletwice",
	"settletwice/redelivery",
	"settletwice/crosspkg/settlers", "settletwice/crosspkg/consumer",
	"settletwice/handlers/bus", "settletwice/handlers/service",
)...)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	t.Parallel()
	batch.RunStandard(t)
}

// TestAcrossPackages runs the check on a package that calls the settling
// helpers of another, known through their effects facts: the report at a
// helper's call points at the settlement inside it.
func TestAcrossPackages(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "settletwice/crosspkg/settlers", "settletwice/crosspkg/consumer")
	found := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "settlers.Drop") {
				continue
			}
			found = true
			if len(d.Related) != 2 {
				t.Fatalf("related = %v, want the Ack and the Term inside settlers.Drop", d.Related)
			}
			inner := r.Pass.Fset.Position(d.Related[1].Pos)
			if filepath.Base(inner.Filename) != "settlers.go" || inner.Line != 19 {
				t.Errorf("inner Term at %v, want settlers.go:19", inner)
			}
		}
	}
	if !found {
		t.Error("no diagnostic at the call of settlers.Drop")
	}
}

// TestDoc checks the analyzer's Doc is doc.go's section: a lowercase title
// of at most 60 characters, a body that says what is not reported.
func TestDoc(t *testing.T) {
	title, body, _ := strings.Cut(settletwice.Analyzer.Doc, "\n")
	if !strings.HasPrefix(title, "settletwice: ") || len(title) > 60 {
		t.Errorf("title %q: want \"settletwice: ...\" of at most 60 characters", title)
	}
	for _, want := range []string{"Not reported", "InProgress", "back edge", "Fix:"} {
		if !strings.Contains(body, want) {
			t.Errorf("doc does not mention %s", want)
		}
	}
}

// TestRedelivery: messages nothing redelivers (an ordered consumer's, an
// ephemeral reader's read once, a core NATS subscription's) are not
// judged; the same code over a durable consumer is.
func TestRedelivery(t *testing.T) {
	t.Parallel()
	batch.Run(t, "settletwice/redelivery")
}

// TestHandlerErrorReturns: a handler's error return after it Acked its
// message is reported when its bus (another package, known through the
// handler fact) Naks or Terms on error; quiet on a bus that only logs the
// error, for returns of nil or of an error nil on that path, before the
// Ack, and on the Ack's own failure branch.
func TestHandlerErrorReturns(t *testing.T) {
	t.Parallel()
	batch.Run(t, "settletwice/handlers/bus", "settletwice/handlers/service")
}
