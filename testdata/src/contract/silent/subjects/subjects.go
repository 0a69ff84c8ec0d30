// Package subjects names the service's subjects; one is a dead-letter
// subject, built from constants (a dlqSubjectsFact).
package subjects

const (
	prefix = "orders."
	dead   = "d" + "lq"

	// Orders is where orders arrive.
	Orders = prefix + "created"
	// Parked is where failed orders go.
	Parked = prefix + dead
)
