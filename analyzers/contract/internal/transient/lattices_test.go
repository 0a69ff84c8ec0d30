package transient

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/retrylint/retrylint/analyzers/internal/dataflow"
)

// lattice is a named lattice given by its join, equality and least
// element, for dataflow.Laws.
type lattice[S any] struct {
	bottom S
	join   func(a, b S) S
	equal  func(a, b S) bool
}

func (l lattice[S]) Bottom() S           { return l.bottom }
func (l lattice[S]) Join(a, b S) S       { return l.join(a, b) }
func (l lattice[S]) Equal(a, b S) bool   { return l.equal(a, b) }
func eq[S comparable](a, b S) bool       { return a == b }
func method[S fact[S]](a, b S) S         { return a.join(b) }
func methodEqual[S fact[S]](a, b S) bool { return a.equal(b) }

// lifted is l with a least element added: for the lattices whose least
// element is not a value (agree's "no path yet", the universe of a
// must-set), as the composed state adds it (the nil *flowState).
func lifted[S any](join func(a, b S) S, equal func(a, b S) bool) lattice[*S] {
	return lattice[*S]{
		join: func(a, b *S) *S {
			switch {
			case a == nil:
				return b
			case b == nil:
				return a
			}
			r := join(*a, *b)
			return &r
		},
		equal: func(a, b *S) bool {
			if a == nil || b == nil {
				return a == b
			}
			return equal(*a, *b)
		},
	}
}

func ptrs[S any](xs ...S) []*S {
	out := []*S{nil}
	for i := range xs {
		out = append(out, &xs[i])
	}
	return out
}

// checkLattice checks the semilattice laws of l over states, and that
// equality agrees with the join order (checkOrder).
func checkLattice[S any](t *testing.T, name string, l lattice[S], states []S) {
	t.Helper()
	format := func(s S) string { return fmt.Sprintf("%+v", s) }
	if err := dataflow.Laws[S](l, states, format); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	checkOrder(t, name, l, states, format)
}

// checkOrder checks that equality agrees with the order the join defines:
// a equals b exactly when each is below the other.
func checkOrder[S any](t *testing.T, name string, l dataflow.Lattice[S], states []S, format func(S) string) {
	t.Helper()
	for _, a := range states {
		for _, b := range states {
			ab := l.Join(a, b)
			if below := l.Equal(ab, a) && l.Equal(ab, b); below != l.Equal(a, b) {
				t.Errorf("%s: Equal(%s, %s) = %v, but each below the other: %v", name, format(a), format(b), l.Equal(a, b), below)
			}
		}
	}
}

// TestNamedLatticeLaws checks the laws of each named lattice the state is
// composed of, over all (or sampled) values.
func TestNamedLatticeLaws(t *testing.T) {
	u := newLatticeUniverse()
	d, d2, c := u.delays[0], u.delays[1], u.carriers[0]
	checkLattice(t, "must", lattice[must]{bottom: true, join: method[must], equal: eq[must]}, []must{true, false})
	checkLattice(t, "may", lattice[may]{bottom: false, join: may.join, equal: eq[may]}, []may{false, true})
	checkLattice(t, "agree", lifted(agree[*types.Var], eq[*types.Var]), ptrs[*types.Var](nil, d, d2))
	sets := []mustSet{nil, {d}, {d2}, {d, d2}, {d2, d}, {d, c}, {c, d2, d}}
	checkLattice(t, "mustSet", lifted(method[mustSet], methodEqual[mustSet]), ptrs(sets...))
	checkLattice(t, "varMap[must]", lifted(varMap[must].join, varMap[must].equal), ptrs(
		varMap[must]{}, varMap[must]{d: true}, varMap[must]{d2: true}, varMap[must]{d: true, c: true}))
	checkLattice(t, "varMap[mustSet]", lifted(varMap[mustSet].join, varMap[mustSet].equal), ptrs(
		varMap[mustSet]{}, varMap[mustSet]{u.bools[0]: {d}}, varMap[mustSet]{u.bools[0]: {d2, d}, c: {d}},
		varMap[mustSet]{u.bools[0]: {d, d2}}))
	checkLattice(t, "varMap[*errTest]", lifted(varMap[*errTest].join, varMap[*errTest].equal), ptrs(
		varMap[*errTest]{}, varMap[*errTest]{u.bools[0]: u.tests[0]}, varMap[*errTest]{u.bools[0]: u.tests[1]},
		varMap[*errTest]{u.bools[0]: u.tests[0], d: u.tests[1]}))

	var musts []mustFacts
	var mays []mayFacts
	for _, f := range sampleFacts(t, u) {
		musts, mays = append(musts, f.mustFacts), append(mays, f.mayFacts)
	}
	checkLattice(t, "mustFacts", lifted(mustFacts.join, eq[mustFacts]), ptrs(musts...))
	checkLattice(t, "mayFacts", lattice[mayFacts]{join: mayFacts.join, equal: eq[mayFacts]}, mays)
	vals := []varMap[*valFacts]{{}}
	r := rand.New(rand.NewPCG(5, 42))
	for len(vals) < 10 {
		vals = append(vals, u.state(r, 0).vals)
	}
	checkLattice(t, "varMap[*valFacts]", lifted(varMap[*valFacts].join, varMap[*valFacts].equal), ptrs(vals...))
	checkLattice(t, "varMap[errFacts]", lifted(varMap[errFacts].join, varMap[errFacts].equal), ptrs(
		varMap[errFacts]{}, varMap[errFacts]{u.errs[0]: sampleFacts(t, u)[1]},
		varMap[errFacts]{u.errs[0]: sampleFacts(t, u)[2], nil: sampleFacts(t, u)[3]}))
}

// sampleFacts returns error facts drawn from the universe's states.
func sampleFacts(t *testing.T, u *latticeUniverse) []errFacts {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 42))
	out := []errFacts{{}}
	for len(out) < 12 {
		for _, f := range u.state(r, 1).errs {
			out = append(out, f)
		}
	}
	return out
}

// fieldOf returns field i of the struct *p, settable although unexported.
func fieldOf(p reflect.Value, i int) reflect.Value {
	f := p.Elem().Field(i)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// fieldValues returns the values a field of type typ is tried with.
func fieldValues(t *testing.T, typ reflect.Type) []reflect.Value {
	var out []reflect.Value
	switch {
	case typ == reflect.TypeFor[must]() || typ == reflect.TypeFor[may]():
		out = append(out, reflect.ValueOf(false).Convert(typ), reflect.ValueOf(true).Convert(typ))
	case typ.Kind() == reflect.Pointer:
		out = append(out, reflect.Zero(typ), reflect.New(typ.Elem()), reflect.New(typ.Elem()))
	case typ == reflect.TypeFor[ast.Node]():
		for _, n := range []ast.Node{nil, &ast.Ident{Name: "a"}, &ast.Ident{Name: "b", NamePos: token.Pos(1)}} {
			v := reflect.New(typ).Elem()
			if n != nil {
				v.Set(reflect.ValueOf(n))
			}
			out = append(out, v)
		}
	default:
		t.Fatalf("no values for a field of type %v", typ)
	}
	return out
}

// TestFactJoinsEveryField checks that the join of each part of an error's
// facts joins every field by the lattice of its type (must: and, may: or,
// any other: agree), with every must-fact held so that no witness is
// cleared: a field added without its line in the join fails here.
func TestFactJoinsEveryField(t *testing.T) {
	for _, part := range []struct {
		typ  reflect.Type
		join func(a, b reflect.Value) reflect.Value
	}{
		{reflect.TypeFor[mustFacts](), func(a, b reflect.Value) reflect.Value {
			return reflect.ValueOf(a.Interface().(mustFacts).join(b.Interface().(mustFacts)))
		}},
		{reflect.TypeFor[mayFacts](), func(a, b reflect.Value) reflect.Value {
			return reflect.ValueOf(a.Interface().(mayFacts).join(b.Interface().(mayFacts)))
		}},
	} {
		held := reflect.New(part.typ)
		for i := range part.typ.NumField() {
			if part.typ.Field(i).Type == reflect.TypeFor[must]() {
				fieldOf(held, i).SetBool(true)
			}
		}
		for i := range part.typ.NumField() {
			field := part.typ.Field(i)
			if k := field.Type.Kind(); k != reflect.Pointer && k != reflect.Interface &&
				field.Type != reflect.TypeFor[must]() && field.Type != reflect.TypeFor[may]() {
				t.Errorf("%v.%s is a %v: a fact is a must, a may, or a witness (a pointer or node) joined by agree", part.typ, field.Name, field.Type)
				continue
			}
			for _, va := range fieldValues(t, field.Type) {
				for _, vb := range fieldValues(t, field.Type) {
					a, b := reflect.New(part.typ), reflect.New(part.typ)
					a.Elem().Set(held.Elem())
					b.Elem().Set(held.Elem())
					fieldOf(a, i).Set(va)
					fieldOf(b, i).Set(vb)
					r := reflect.New(part.typ)
					r.Elem().Set(part.join(a.Elem(), b.Elem()))
					got := fieldOf(r, i).Interface()
					var want any
					switch field.Type {
					case reflect.TypeFor[must]():
						want = must(va.Bool() && vb.Bool())
					case reflect.TypeFor[may]():
						want = may(va.Bool() || vb.Bool())
					default:
						want = reflect.Zero(field.Type).Interface()
						if va.Interface() == vb.Interface() {
							want = va.Interface()
						}
					}
					if got != want {
						t.Errorf("%v.%s: join(%v, %v) = %v, want %v", part.typ, field.Name, va, vb, got, want)
					}
				}
			}
		}
	}
}

// TestJoinClearsWitnesses checks that a join keeps no witness of a fact
// that does not hold after it, even one both sides name: a witness means
// nothing without its fact, and equal states must be equal values.
func TestJoinClearsWitnesses(t *testing.T) {
	u := newLatticeUniverse()
	f := mustFacts{delay: u.delays[0], carrier: u.carriers[0], tOrigin: u.origins[0],
		pOrigin: u.producers[0], nOrigin: u.origins[1], nonNil: true}
	if got, want := f.join(f), (mustFacts{nonNil: true}); got != want {
		t.Errorf("join = %+v, want %+v", got, want)
	}
}
