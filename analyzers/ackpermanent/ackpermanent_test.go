package ackpermanent_test

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/ackpermanent"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
	"github.com/retrylint/retrylint/analyzers/internal/foreign"
)

// batch runs the check over the packages of all the tests below, in one
// load.
var batch = checktest.NewBatch(ackpermanent.Analyzer, checktest.StandardPackages("ackpermanent",
	"ackpermanent/redelivery",
	"ackpermanent/nodlq",
	"ackpermanent/crosspkg/retry", "ackpermanent/crosspkg/consumer",
	"ackpermanent/handlers/bus", "ackpermanent/handlers/svc", "ackpermanent/handlers/app",
	"ackpermanent/eventfeed/app",
)...)

// TestStandardPackages runs the check over its standard test packages:
// positives, look-alikes, generics, broken code, generated files and
// suppression.
func TestStandardPackages(t *testing.T) {
	t.Parallel()
	batch.RunStandard(t)
}

// TestNoDLQ runs the check on a package that writes no DLQ anywhere.
func TestNoDLQ(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackpermanent/nodlq")
}

// TestAcrossPackages runs the check on a package whose classifier, Ack
// helper and DLQ writers are another package's, known through facts.
func TestAcrossPackages(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackpermanent/crosspkg/retry", "ackpermanent/crosspkg/consumer")
}

// TestHandlers runs the check over handlers registered with a bus that
// Acks their nil result: the report is at the return, with the
// classification and the bus's Ack as related locations.
func TestHandlers(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "ackpermanent/handlers/bus", "ackpermanent/handlers/svc")
	found := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			found = true
			if len(d.Related) != 2 || !strings.Contains(d.Related[0].Message, "no retry intent") || !strings.Contains(d.Related[1].Message, "Acks the message here") {
				t.Errorf("related = %v, want the classification and the bus's Ack", d.Related)
			}
		}
	}
	if !found {
		t.Error("no diagnostic in ackpermanent/handlers/svc")
	}
}

// TestForeignHandlerFacts: the functions that could be handlers
// registered in another package export the returns that would Ack a
// permanent failure without evidence, in a package that dead-letters
// elsewhere; one that dead-letters first, decides with errors.Is, or
// lives in a package with no DLQ write exports nothing.
func TestForeignHandlerFacts(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, checktest.TestData(), ackpermanent.Analyzer, "ackpermanent/handlers/billing", "ackpermanent/handlers/ledger")
}

// TestForeignHandlers: the package that registers billing's and ledger's
// handlers with a bus that Acks on nil reports what their facts record,
// at the registration; the look-alikes stay quiet.
func TestForeignHandlers(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "ackpermanent/handlers/app")
	checktest.CheckForeign(t, results, "billing.go", "no retry intent")
}

// TestMessagelessMiddleware: middleware of another package whose closure
// takes a decoded event and no message (guard.SkipFailures(h) returning a
// feed.Func) is the handler where its result is registered: the closure's
// nil after a "no retry intent" classification is reported at the
// registration; an errors.Is decision, a checked DLQ write first, one of
// two closures and a tap that Naks on nil stay quiet, and a function that
// returns a handler without taking one carries no fact.
func TestMessagelessMiddleware(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, checktest.TestData(), ackpermanent.Analyzer, "ackretryable/eventfeed/guard")
	results := batch.Run(t, "ackpermanent/eventfeed/app")
	checktest.CheckForeign(t, results, "guard.go", "no retry intent")
}

// TestDoc checks the analyzer's Doc is doc.go's section: a lowercase title
// of at most 60 characters, a body that says what is not reported.
func TestDoc(t *testing.T) {
	title, body, _ := strings.Cut(ackpermanent.Analyzer.Doc, "\n")
	if !strings.HasPrefix(title, "ackpermanent: ") || len(title) > 60 {
		t.Errorf("title %q: want \"ackpermanent: ...\" of at most 60 characters", title)
	}
	for _, want := range []string{"Not reported", "errors.Is", "type switch", "no DLQ write", "Fix:"} {
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
	batch.Run(t, "ackpermanent/redelivery")
}

// TestPermanentDropFactGob encodes a PermanentDropFact with gob twice and
// checks the bytes are identical and decode to an equal value: facts
// travel between packages in this form.
func TestPermanentDropFactGob(t *testing.T) {
	f := &ackpermanent.PermanentDropFact{Rows: []ackpermanent.PermanentDrop{
		{At: foreign.Place{Line: 8, Col: 3}, Err: "err", Origin: foreign.Place{Line: 4, Col: 6}},
		{At: foreign.Place{Line: 12, Col: 3}, Err: "err", Origin: foreign.None},
	}}
	var a, b bytes.Buffer
	if err := gob.NewEncoder(&a).Encode(f); err != nil {
		t.Fatal(err)
	}
	if err := gob.NewEncoder(&b).Encode(f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("encoding is not deterministic")
	}
	var back ackpermanent.PermanentDropFact
	if err := gob.NewDecoder(&a).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, f) {
		t.Errorf("decoded %+v, want %+v", back, f)
	}
}
