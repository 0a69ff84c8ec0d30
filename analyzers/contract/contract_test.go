package contract_test

import (
	"bytes"
	"encoding/gob"
	"flag"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/contract"
	"github.com/retrylint/retrylint/analyzers/internal/checktest"
)

var testdata = checktest.TestData()

// facts runs the model over the packages of all the tests that check its
// facts with contract.Analyzer, in one load.
var facts = checktest.NewBatch(contract.Analyzer,
	"contract/producers/lib", "contract/producers/app",
	"contract/dlq/sink", "contract/dlq/app", "contract/dlq/kinds",
	"contract/transient/classify",
	"contract/gate/subjects", "contract/gate/relay",
)

func TestProducerFacts(t *testing.T) {
	t.Parallel()
	facts.Run(t, "contract/producers/lib", "contract/producers/app")
}

// fill sets every field of v, recursively, to a value that is not zero:
// slices get two elements.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i))
		}
	case reflect.Int:
		v.SetInt(2)
	case reflect.String:
		v.SetString("terminate")
	}
}

// TestFactsRoundTrip encodes every fact type with gob twice and checks the
// bytes are identical and decode to an equal value: facts travel between
// packages (and go vet runs) in this form.
func TestFactsRoundTrip(t *testing.T) {
	for _, f := range contract.Analyzer.FactTypes {
		v := reflect.New(reflect.TypeOf(f).Elem())
		fill(v.Elem())
		fact := v.Interface().(analysis.Fact)
		var a, b bytes.Buffer
		if err := gob.NewEncoder(&a).Encode(fact); err != nil {
			t.Fatalf("%T: %v", fact, err)
		}
		if err := gob.NewEncoder(&b).Encode(fact); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%T: encoding is not deterministic", fact)
		}
		back := reflect.New(reflect.TypeOf(f).Elem()).Interface()
		if err := gob.NewDecoder(&a).Decode(back); err != nil {
			t.Fatalf("%T: %v", fact, err)
		}
		if !reflect.DeepEqual(back, fact) {
			t.Errorf("%T: round trip gave %v, want %v", fact, back, fact)
		}
	}
}

// TestBadOptions checks that every malformed option fails with an error
// that names the problem, never a silent default.
func TestBadOptions(t *testing.T) {
	for _, tc := range []struct{ flag, value, want string }{
		{contract.FlagDLQPattern, "(dlq", "invalid regexp"},
		{contract.FlagDLQSubjectPattern, "", "empty regexp"},
		{contract.FlagTransientPredicate, "[", "invalid regexp"},
		{contract.FlagCarrierMethod, "Retry Delay", "not a Go method name"},
		{contract.FlagDLQFuncs, "deadLetter", "malformed function name"},
		{contract.FlagDLQFuncs, "example.com/bus.Sink.Write.Extra", "malformed function name"},
		{contract.FlagDLQFuncs, "example.com/bus.9lives", "malformed function name"},
		{contract.FlagDecodePattern, "(unmarshal", "invalid regexp"},
		{contract.FlagDecodePattern, "", "empty regexp"},
		{contract.FlagProfiles, "/no/such/profile.json", "no such file"},
	} {
		cfg := contract.DefaultConfig()
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(new(bytes.Buffer))
		cfg.RegisterFlags(fs)
		err := fs.Parse([]string{"-" + tc.flag + "=" + tc.value})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-%s=%q: got error %v, want one containing %q", tc.flag, tc.value, err, tc.want)
		}
		if err := cfg.SetOption(tc.flag, tc.value); err == nil {
			t.Errorf("SetOption(%s, %q) accepted a bad value", tc.flag, tc.value)
		}
	}
	if err := contract.DefaultConfig().SetOption("no-such-option", "x"); err == nil {
		t.Error("SetOption accepted an unknown option")
	}
}

func TestGoodOptions(t *testing.T) {
	cfg := contract.DefaultConfig()
	if err := cfg.SetOption(contract.FlagDLQFuncs, "example.com/bus.Sink.Write, example.com/bus/v2.Park"); err != nil {
		t.Fatal(err)
	}
	want := contract.FuncList{
		{PkgPath: "example.com/bus", Recv: "Sink", Name: "Write"},
		{PkgPath: "example.com/bus/v2", Name: "Park"},
	}
	if !reflect.DeepEqual(cfg.DLQFuncs, want) {
		t.Errorf("DLQFuncs = %v, want %v", cfg.DLQFuncs, want)
	}
	if err := cfg.SetOption(contract.FlagCarrierMethod, "Backoff"); err != nil || cfg.CarrierMethod != "Backoff" {
		t.Errorf("carrier method: %v %q", err, cfg.CarrierMethod)
	}
}
