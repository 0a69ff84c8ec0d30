package driver_test

import "runtime"

// runtimeMem samples the total bytes allocated so far.
type runtimeMem struct{ alloc uint64 }

func (m *runtimeMem) read() {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	m.alloc = s.TotalAlloc
}
