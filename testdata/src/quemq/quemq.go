// Package quemq is a made-up message library whose ack methods have other
// names than NATS's: Accept (done), Requeue (retry now), RequeueAfter
// (retry later), Discard (terminate), Touch (in progress); Bind decodes
// the body. profile.json describes it to retrylint.
package quemq

import "time"

// Delivery is one message handed to a consumer.
type Delivery struct {
	Topic string
	Body  []byte
	Trace []byte // opaque trace context: not the body
}

func (d *Delivery) Accept() error                          { return nil }
func (d *Delivery) Requeue() error                         { return nil }
func (d *Delivery) RequeueAfter(delay time.Duration) error { return nil }
func (d *Delivery) Discard(reason string) error            { return nil }
func (d *Delivery) Touch() error                           { return nil }

// Bind decodes the delivery's body into v (the profile's decode method).
func (d *Delivery) Bind(v any) error { return nil }

// Client sends messages to topics.
type Client struct{}

// Send publishes body to topic.
func (c *Client) Send(topic string, body []byte) error { return nil }

// Consume calls h for each delivery of topic.
func (c *Client) Consume(topic string, h func(*Delivery)) error { return nil }
