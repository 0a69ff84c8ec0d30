package foreign_test

import (
	"bytes"
	"encoding/gob"
	"go/types"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/foreign"
)

type row struct {
	At   foreign.Place
	Name string
}

func (r row) Return() foreign.Place { return r.At }
func (row) Summary() string         { return "a test row" }

// TestFactGob sends a Fact through gob as the analysis drivers do in vet
// mode (gob.Register, then an analysis.Fact interface value): the
// instantiation's registered name is stable, the encoding deterministic,
// and the value decodes back equal; the fact's String is the row's
// Summary.
func TestFactGob(t *testing.T) {
	f := &foreign.Fact[row]{Rows: []row{{At: foreign.Place{Line: 3, Col: 2}, Name: "x"}, {At: foreign.None}}}
	gob.Register(f)
	type envelope struct{ Fact analysis.Fact }
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		if err := gob.NewEncoder(buf).Encode(envelope{f}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("encoding is not deterministic")
	}
	// gob.Register names a pointer by its reflect String: the generic
	// type by its package's name, the row type by its full import path,
	// so that the name is the same in every run and differs per check.
	name := "*foreign.Fact[github.com/retrylint/retrylint/analyzers/internal/foreign_test.row]"
	if !bytes.Contains(a.Bytes(), []byte(name)) {
		t.Errorf("encoding does not name the type %s", name)
	}
	var back envelope
	if err := gob.NewDecoder(&a).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Fact, analysis.Fact(f)) {
		t.Errorf("decoded %+v, want %+v", back.Fact, f)
	}
	if got := f.String(); got != "a test row" {
		t.Errorf("String() = %q", got)
	}
}

// TestHandlerName names functions and methods as a reader of the
// registering package does.
func TestHandlerName(t *testing.T) {
	pkg := types.NewPackage("example.com/billing", "billing")
	named := types.NewNamed(types.NewTypeName(0, pkg, "Handlers", nil), types.NewStruct(nil, nil), nil)
	sig := func(recv types.Type) *types.Signature {
		var r *types.Var
		if recv != nil {
			r = types.NewParam(0, pkg, "h", recv)
		}
		return types.NewSignatureType(r, nil, nil, nil, nil, false)
	}
	for _, c := range []struct {
		fn   *types.Func
		want string
	}{
		{types.NewFunc(0, pkg, "HandleInvoice", sig(nil)), "billing.HandleInvoice"},
		{types.NewFunc(0, pkg, "HandleCharge", sig(types.NewPointer(named))), "(*billing.Handlers).HandleCharge"},
		{types.NewFunc(0, pkg, "Audit", sig(named)), "billing.Handlers.Audit"},
	} {
		if got := foreign.HandlerName(c.fn); got != c.want {
			t.Errorf("HandlerName = %q, want %q", got, c.want)
		}
	}
}
