package ackretryable_test

import (
	"bytes"
	"encoding/gob"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzers/ackretryable"
	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
)

// batch runs the check over the packages of all the tests below that use
// ackretryable.Analyzer, in one load.
var batch = checktest.NewBatch(ackretryable.Analyzer, checktest.StandardPackages("ackretryable",
	"ackretryable/crosspkg/upstream", "ackretryable/crosspkg/middle", "ackretryable/crosspkg/downstream",
	"ackretryable/handlers/svc",
	"ackretryable/deferred",
	"ackretryable/helpers/app",
	"ackretryable/redeliverytest", "ackretryable/redelivery",
	"ackretryable/ackers/acks", "ackretryable/ackers/app",
	"ackretryable/foreign/svc", "ackretryable/foreign/app",
	"ackretryable/entryrouter/inproc", "ackretryable/entryrouter/invoices", "ackretryable/entryrouter/app",
	"ackretryable/jobrunner/mail", "ackretryable/jobrunner/app",
	"ackretryable/eventfeed/views", "ackretryable/eventfeed/app",
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
	batch.Run(t, "ackretryable/crosspkg/upstream", "ackretryable/crosspkg/middle", "ackretryable/crosspkg/downstream")
}

// TestDoc checks the analyzer's Doc is doc.go's section: a lowercase title
// line of at most 60 characters, then a body that says what counts as a
// classification.
func TestDoc(t *testing.T) {
	title, body, _ := strings.Cut(ackretryable.Analyzer.Doc, "\n")
	if !strings.HasPrefix(title, "ackretryable: ") || len(title) > 60 {
		t.Errorf("title %q: want \"ackretryable: ...\" of at most 60 characters", title)
	}
	for _, want := range []string{"errors.As", "errors.Is", "type switch", "Across packages"} {
		if !strings.Contains(body, want) {
			t.Errorf("doc does not mention %s", want)
		}
	}
}

// TestHandlers runs the check over handlers registered with a bus that
// Acks when they return nil, and over look-alikes passed to callers that
// do not Ack.
func TestHandlers(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, checktest.TestData(), contract.Analyzer, "ackretryable/handlers/bus", "ackretryable/handlers/fieldbus", "ackretryable/handlers/tablebus", "ackretryable/handlers/routebus",
		"ackretryable/handlers/ifacebus", "ackretryable/handlers/natsbus", "ackretryable/handlers/boolbus", "ackretryable/handlers/mwrouter", "ackretryable/handlers/pool")
	batch.Run(t, "ackretryable/handlers/svc")
}

// TestEntryRouter: a router that keeps its handlers in a map of pointers
// to entry structs (the handler a func-typed field), looks one up in a
// dispatch method that returns the handler's result, and settles in a
// worker that calls dispatch directly and Acks on nil: the functions that
// store their parameter in the field have handler parameters, handlers
// registered through them, a Bus interface and another package are
// judged, and auditors (logged), probes (Nak on nil) and a hook field stay
// quiet. inproc stores its own handler in an entry by a positional
// literal, beside hooks of the same entry type whose results are logged.
func TestEntryRouter(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, checktest.TestData(), contract.Analyzer, "ackretryable/entryrouter/router")
	batch.Run(t, "ackretryable/entryrouter/inproc", "ackretryable/entryrouter/invoices", "ackretryable/entryrouter/app")
}

// TestJobRunner: a job registry (queue) that keeps typed handlers, behind
// a decoding adapter and middleware taking the kind, in entry structs, and
// a runner in another package (dispatch) that looks the entry up, calls
// it through an entry method and Acks on nil: the package importing both
// (app) judges the handlers registered there, a function of a third
// package at the registration and a literal at its return; observers
// (logged), probes (an entry method dropping the result) and canaries
// (Nak on nil) stay quiet. Each report names the runner's Ack, in
// dispatch.go, as a related location.
func TestJobRunner(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, checktest.TestData(), contract.Analyzer, "ackretryable/jobrunner/queue", "ackretryable/jobrunner/dispatch")
	batch.Run(t, "ackretryable/jobrunner/mail")
	n := 0
	for _, r := range batch.Run(t, "ackretryable/jobrunner/app") {
		for _, d := range r.Diagnostics {
			n++
			if !slices.ContainsFunc(d.Related, func(rel analysis.RelatedInformation) bool {
				at := r.Action.Package.Fset.Position(rel.Pos)
				return strings.HasSuffix(rel.Message, "Acks the message here") && filepath.Base(at.Filename) == "dispatch.go" && at.Line == 51
			}) {
				t.Errorf("%s: related %v: want the runner's Ack at dispatch.go:51", r.Action.Package.Fset.Position(d.Pos), d.Related)
			}
		}
	}
	if n == 0 {
		t.Error("no report in app")
	}
}

// TestForeignHandlerFacts: exported functions that could be handlers, or
// typed handlers, registered elsewhere carry their nil returns in a
// retryable producer's error branch as facts; unexported ones do not.
func TestForeignHandlerFacts(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackretryable/foreign/svc")
}

// TestForeignHandlers: the package that registers svc's handlers with a
// bus that Acks on nil, directly or through bus.JSON, reports their drops
// at the registration, with the return as the first related location; the
// look-alikes stay quiet.
func TestForeignHandlers(t *testing.T) {
	t.Parallel()
	results := batch.Run(t, "ackretryable/foreign/app")
	checktest.CheckForeign(t, results, "svc.go")
}

// TestMessagelessHandlers: handlers that take a decoded event and no
// message (feed.Func, and feed.Typed's func(ctx, Event, T) error) are
// candidates when their signature fits a handler parameter their package
// sees through its imports' facts: views exports their drops, and app
// reports them at the registration, also with a bus that Acks in a
// helper it passes the handler's error to (feed.Hub); a handler that
// returns its error, a function of another signature, an unexported one
// and registrations where nothing Acks on nil (a tap, a helper that Naks
// on nil, one passed or testing another error) stay quiet.
func TestMessagelessHandlers(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackretryable/eventfeed/views")
	results := batch.Run(t, "ackretryable/eventfeed/app")
	checktest.CheckForeign(t, results, "views.go")
}

// TestDeferred runs the check over deferred Acks pending at returns.
func TestDeferred(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackretryable/deferred")
}

// TestHelpers runs the check over calls of settling helpers of another
// package, judged by the condition of their effects and the argument.
func TestHelpers(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackretryable/helpers/app")
}

// TestRedelivery: settlements of messages nothing redelivers (core NATS,
// ordered and AckNone consumers) are not judged where their origin shows;
// a durable consumer's are.
func TestRedelivery(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackretryable/redelivery")
	// A test function's core NATS subscription of a production handler
	// does not silence it.
	batch.Run(t, "ackretryable/redeliverytest")
}

// TestAckInterfaces: a helper of another package written against an
// interface of ack methods only (Acker) is a helper that Acks the message
// passed to it (contract version 3).
func TestAckInterfaces(t *testing.T) {
	t.Parallel()
	batch.Run(t, "ackretryable/ackers/acks", "ackretryable/ackers/app")
}

// TestRegistrationFactGob encodes a RegistrationFact with gob twice and
// checks the bytes are identical and decode to an equal value: facts
// travel between packages in this form.
func TestRegistrationFactGob(t *testing.T) {
	f := &ackretryable.RegistrationFact{Regs: []ackretryable.Registration{{
		IfacePkg: "example.com/api", Iface: "Bus", Method: "Subscribe", Param: 2,
		File: "svc.go", Line: 50, Col: 12, Caller: "s.bus.Subscribe", Handler: "s.handleOrder",
		Drops: []ackretryable.Drop{{File: "svc.go", Line: 33, Col: 3, Err: "err", Producer: "reserve"}},
	}}}
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
	var back ackretryable.RegistrationFact
	if err := gob.NewDecoder(&a).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, f) {
		t.Errorf("round trip gave %v, want %v", &back, f)
	}
}
