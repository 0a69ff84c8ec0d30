package transient

import (
	"math/rand/v2"
	"testing"
)

// joinSample returns pairs of generated states, representative of the
// states the solver joins: errors with facts, tests, delays, a followed
// variable with snapshots.
func joinSample() [][2]*flowState {
	u := newLatticeUniverse()
	r := rand.New(rand.NewPCG(7, 42))
	var pairs [][2]*flowState
	for range 64 {
		pairs = append(pairs, [2]*flowState{u.state(r, 0), u.state(r, 0)})
	}
	return pairs
}

// joinAllocs is the mean number of allocations of one join over the sample.
func joinAllocs() float64 {
	pairs := joinSample()
	i := 0
	return testing.AllocsPerRun(len(pairs)*4, func() {
		p := pairs[i%len(pairs)]
		i++
		pathLattice{}.Join(p[0], p[1])
	})
}

// maxJoinAllocs is the allocations of a join of the sample when the state
// was five hand-joined maps (BenchmarkJoin: 10 allocations, 1,542 bytes
// per join, before and after): composing it of named lattices must not
// add any.
const maxJoinAllocs = 10

// TestJoinAllocs keeps the join of the solver's states as cheap as it was:
// it runs on every block of every body of a large program.
func TestJoinAllocs(t *testing.T) {
	got := joinAllocs()
	t.Logf("allocations per join: %.0f", got)
	if got > maxJoinAllocs {
		t.Errorf("a join allocates %.0f times, want at most %d", got, maxJoinAllocs)
	}
}

func BenchmarkJoin(b *testing.B) {
	pairs := joinSample()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		pathLattice{}.Join(p[0], p[1])
	}
}
