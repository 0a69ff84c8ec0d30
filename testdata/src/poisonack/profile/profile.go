// Package profile proves a message profile's own decode method (quemq's
// Bind, known only through its profile file): its error branch is a
// decode-failure path; a Bind of another type is not. A named message's
// []byte field that its profile does not name as the payload (Trace) is
// not its payload.
package profile

import (
	"encoding/json"
	"time"

	"quemq"
)

type Order struct{ ID string }

// Form is not a message: its Bind reads a web form.
type Form struct{}

func (f *Form) Bind(v any) error { return nil }

type Consumer struct{}

func (c *Consumer) _(d *quemq.Delivery) {
	var o Order
	if err := d.Bind(&o); err != nil {
		d.Requeue() // want `bare Requeue on the decode failure of d.Bind`
		return
	}
	d.Accept()
}

func (c *Consumer) _(d *quemq.Delivery, f *Form) {
	var o Order
	if err := f.Bind(&o); err != nil {
		d.Requeue()
		return
	}
	if err := d.Bind(&o); err != nil {
		d.RequeueAfter(5 * time.Second)
		return
	}
	d.Accept()
}

func (c *Consumer) _(d *quemq.Delivery) {
	var span map[string]string
	if err := json.Unmarshal(d.Trace, &span); err != nil {
		d.Requeue()
		return
	}
	d.Accept()
}
