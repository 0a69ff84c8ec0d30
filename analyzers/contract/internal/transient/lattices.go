package transient

import (
	"go/types"
	"slices"
)

// The named lattices the state of the transient-path analysis is composed
// of. Each is a join-semilattice (join idempotent, commutative and
// associative; equality agrees with the order join defines), tested with
// these laws in lattices_test.go. Their zero value is the value of a fact
// on a path that says nothing of it: nothing known for a must-fact, nothing
// happened for a may-fact. The least element of the composed state, "no
// path reaches the point", is the nil *flowState; where a lattice has a
// least element of its own it is named.

// must is a fact that holds when it holds on every path: join is and, the
// least element (no path) is true, false is "not known".
type must bool

func (a must) join(b must) must  { return a && b }
func (a must) equal(b must) bool { return a == b }
func (a must) none() bool        { return !bool(a) }
func (a must) clone() must       { return a }

// may is a fact that holds when it holds on some path: join is or, the
// least element is false.
type may bool

func (a may) join(b may) may { return a || b }

// agree joins a value every path must agree on (which delay variable, which
// classification): the value when both sides hold the same, else the zero
// value, "not known", which is the top of this flat lattice.
func agree[T comparable](a, b T) T {
	if a == b {
		return a
	}
	var zero T
	return zero
}

// mustSet is a set that holds on every path (the delays a boolean
// variable's truth bounds): join is the intersection, nil the empty set,
// "not known". Sets are small and kept as slices, in the order of the
// join's first operand.
type mustSet []*types.Var

func (a mustSet) join(b mustSet) mustSet {
	var both mustSet
	for _, z := range a {
		if slices.Contains(b, z) {
			both = append(both, z)
		}
	}
	return both
}

func (a mustSet) equal(b mustSet) bool {
	if len(a) != len(b) {
		return false
	}
	for _, z := range a { // a set: joins keep either operand's order
		if !slices.Contains(b, z) {
			return false
		}
	}
	return true
}

func (a mustSet) none() bool     { return len(a) == 0 }
func (a mustSet) clone() mustSet { return slices.Clone(a) }

// without returns a without v (a itself when v is not in it).
func (a mustSet) without(v *types.Var) mustSet {
	if !slices.Contains(a, v) {
		return a
	}
	var keep mustSet
	for _, z := range a {
		if z != v {
			keep = append(keep, z)
		}
	}
	return keep
}

// fact is what a per-variable lattice value provides to varMap: its join,
// its equality, none (the value says nothing: it is the zero value, as if
// the variable had no entry) and clone (a copy the caller may change).
type fact[V any] interface {
	join(V) V
	equal(V) bool
	none() bool
	clone() V
}

// varMap is the pointwise lattice of a fact per variable: a variable with
// no entry has the zero value of V (the nil key stands for errors not held
// in a variable). Join joins entry by entry and keeps only the entries
// that say something, so that equal states are equal maps. Adding a fact
// per variable to the state is one varMap of a fact type.
type varMap[V fact[V]] map[*types.Var]V

func (m varMap[V]) join(o varMap[V]) varMap[V] {
	r := make(varMap[V])
	var none V
	for k, a := range m {
		b, ok := o[k]
		if !ok {
			b = none
		}
		if j := a.join(b); !j.none() {
			r[k] = j
		}
	}
	for k, b := range o {
		if _, done := m[k]; !done {
			if j := none.join(b); !j.none() {
				r[k] = j
			}
		}
	}
	return r
}

func (m varMap[V]) equal(o varMap[V]) bool {
	if len(m) != len(o) {
		return false
	}
	for k, a := range m {
		if b, ok := o[k]; !ok || !a.equal(b) {
			return false
		}
	}
	return true
}

func (m varMap[V]) clone() varMap[V] {
	r := make(varMap[V], len(m))
	for k, v := range m {
		r[k] = v.clone()
	}
	return r
}
