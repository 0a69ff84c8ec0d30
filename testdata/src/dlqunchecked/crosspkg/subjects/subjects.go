// Package subjects names the subjects of the order pipeline, the
// parking subject for messages that cannot be processed among them.
package subjects

const (
	Orders  = "orders.created"
	Parking = "orders.dead-letter"
	Audit   = "orders.audit"
)
