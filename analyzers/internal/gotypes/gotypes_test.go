package gotypes

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestIsErrorAgreesWithImplements checks IsError's shortcut (lacksErrorMethod)
// against the method set lookup it skips, on every type a small program of
// tricky shapes uses: embedded errors, pointer receivers, aliases, generic
// types, defined pointers, interfaces and type parameters.
func TestIsErrorAgreesWithImplements(t *testing.T) {
	const src = `package p

import "errors"

type plain struct{ n int }
type valueErr struct{}
func (valueErr) Error() string { return "" }
type ptrErr struct{}
func (*ptrErr) Error() string { return "" }
type embeds struct{ error }
type embedsPtr struct{ *ptrErr }
type embedsValue struct{ valueErr }
type other struct{}
func (other) String() string { return "" }
type alias = valueErr
type ptrAlias = *ptrErr
type defPtr *valueErr
type iface interface{ Error() string }
type noIface interface{ M() }
type gen[T any] struct{ v T }
func (gen[T]) Error() string { return "" }
type genPlain[T any] struct{ v T }
type genEmbeds[T error] struct{ e T; error }
type named []error
type fn func() error
type server struct{ n int }
func (*server) Start() error { return nil }
func (server) String() string { return "" }
type errLike interface{ Error() string; Code() int }
type embedsIface interface{ error; Temporary() bool }
type ptrOnly struct{}
func (*ptrOnly) Error() string { return "" }
type wrongSig struct{}
func (wrongSig) Error() int { return 0 }

var (
	_ plain
	_ *plain
	_ valueErr
	_ *valueErr
	_ ptrErr
	_ *ptrErr
	_ embeds
	_ *embeds
	_ embedsPtr
	_ embedsValue
	_ *embedsValue
	_ other
	_ alias
	_ *alias
	_ ptrAlias
	_ defPtr
	_ iface
	_ noIface
	_ gen[int]
	_ *gen[string]
	_ genPlain[error]
	_ *genPlain[int]
	_ genEmbeds[error]
	_ named
	_ fn
	_ struct{ error }
	_ *struct{ x int }
	_ **ptrErr
	_ error
	_ = errors.New
	_ [2]error
	_ map[string]error
	_ chan error
	_ server
	_ *server
	_ errLike
	_ embedsIface
	_ ptrOnly
	_ *ptrOnly
	_ wrongSig
	_ *wrongSig
	_ interface{ M(); N() }
)

func f[T any, E error](t T, e E, p *T) {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue)}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for e, tv := range info.Types {
		if !tv.IsType() && !tv.IsValue() {
			continue
		}
		typ := tv.Type
		if typ == nil || !IsValid(typ) {
			continue
		}
		if _, tuple := typ.(*types.Tuple); tuple {
			continue
		}
		want := types.Implements(typ, errorType)
		if got := IsError(typ); got != want {
			t.Errorf("IsError(%s) at %s = %v, types.Implements says %v", typ, fset.Position(e.Pos()), got, want)
		}
		checked++
	}
	if checked < 40 {
		t.Fatalf("checked %d types, want the program's 40 or more", checked)
	}
}
