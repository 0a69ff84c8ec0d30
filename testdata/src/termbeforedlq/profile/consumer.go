// Package profile is a consumer of quemq, a message library known only
// through its profile (testdata/src/quemq/profile.json): its Discard
// terminates a delivery, and a Send to a dead-letter topic writes the DLQ.
package profile

import (
	"encoding/json"
	"log"

	"quemq"
)

type Invoice struct {
	ID string `json:"id"`
}

type Consumer struct {
	client *quemq.Client
}

func (c *Consumer) handle(d *quemq.Delivery) {
	var inv Invoice
	if err := json.Unmarshal(d.Body, &inv); err != nil {
		d.Discard("malformed") // want `Discard before the DLQ write c.client.Send: write the DLQ and check its error first; on failure RequeueAfter and return`
		if err := c.client.Send("invoices.dlq", d.Body); err != nil {
			log.Printf("dead letter: %v", err)
		}
		return
	}
	d.Accept()
}

func (c *Consumer) handleLogged(d *quemq.Delivery) {
	if err := c.client.Send("invoices.dead-letter", d.Body); err != nil {
		log.Printf("dead letter failed: %v", err)
	}
	d.Discard("poison") // want `Discard on the failure path of the DLQ write c.client.Send`
}

// The right order: the dead letter is written and checked, then the
// delivery is discarded; on failure it comes back later.
func (c *Consumer) handleRight(d *quemq.Delivery) {
	if err := c.client.Send("invoices.dlq", d.Body); err != nil {
		d.RequeueAfter(5e9)
		return
	}
	d.Discard("poison")
}

// Send to another topic is not a DLQ write.
func (c *Consumer) forward(d *quemq.Delivery) {
	d.Discard("moved")
	if err := c.client.Send("invoices.archive", d.Body); err != nil {
		log.Print(err)
	}
}
