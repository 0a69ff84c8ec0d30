package subjects // want package:"DLQ subject constants Parking"

// The subjects of the order pipeline, the parking subject for messages
// that cannot be processed among them: an importer may publish to a
// dead-letter subject by naming it.

const (
	Orders  = "orders.created"
	Parking = "orders.dead-letter"
	Audit   = "orders.audit"
)

// A local constant is no subject an importer can name.
func local() string {
	const quarantine = "orders.dead-letter.local"
	return quarantine
}
