package contract

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"github.com/retrylint/retrylint/analyzers/contract/internal/handlers"
	"github.com/retrylint/retrylint/analyzers/contract/internal/settle"
	"github.com/retrylint/retrylint/analyzers/profile"
)

// TestDLQAndTermFactsGob round-trips the DLQ-writer, effects, handler and
// middleware facts, with the inner Term's place, through gob: the encoding is byte-identical
// each time and decodes to the same fact, whose String is what fact tests
// expect.
func TestDLQAndTermFactsGob(t *testing.T) {
	for _, tc := range []struct {
		fact interface {
			String() string
		}
		want string
	}{
		{&dLQWriterFact{}, "writes DLQ"},
		{&effectsFact{Effects: []settle.Effect{{Param: 1, Settlement: profile.Terminate, Line: 7, Col: 10}}}, "may Term param 1"},
		{&effectsFact{Effects: []settle.Effect{
			{Param: 0, Settlement: profile.Done}, {Param: 0, Settlement: profile.Terminate}, {Param: 2, Settlement: profile.Terminate},
		}}, "may Ack param 0; may Term param 0,2"},
		{&handlerFact{Params: []int{1}, Line: 3, Col: 4, OnError: profile.RetryLater}, "acks when handler param 1 returns nil, retry-later on error"},
		{&middlewareFact{Params: []int{0}}, "wraps handler param 0"},
		{&middlewareFact{Factory: true}, "returns middleware"},
		{&middlewareFact{Params: []int{1}, Factory: true}, "wraps handler param 1; returns middleware"},
		{&handlers.FieldFact{Stores: "Task.exec", Params: []int{1, 2}}, "stores handler param 1,2 in Task.exec"},
		{&handlers.FieldFact{Returns: "Task.exec", Acks: "example.com/queue.Job.run", Line: 12, Col: 3}, "returns Task.exec's result; acks when example.com/queue.Job.run returns nil"},
	} {
		var a, b bytes.Buffer
		if err := gob.NewEncoder(&a).Encode(tc.fact); err != nil {
			t.Fatalf("%T: %v", tc.fact, err)
		}
		if err := gob.NewEncoder(&b).Encode(tc.fact); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%v: encoding is not deterministic", tc.fact)
		}
		back := reflect.New(reflect.TypeOf(tc.fact).Elem()).Interface()
		if err := gob.NewDecoder(&a).Decode(back); err != nil {
			t.Fatalf("%T: %v", tc.fact, err)
		}
		if !reflect.DeepEqual(back, tc.fact) {
			t.Errorf("round trip gave %#v, want %#v", back, tc.fact)
		}
		if got := tc.fact.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// TestDLQFuncsFlagText: the dlq stage names the dlq-funcs flag as the
// drivers spell it.
func TestDLQFuncsFlagText(t *testing.T) {
	if want := "-" + Name + "." + FlagDLQFuncs; (FuncName{}).Where() != want {
		t.Errorf("FuncName.Where() = %q, want %q", (FuncName{}).Where(), want)
	}
}
