// Package unconfirmed proves CONTRACT.md version 3's unconfirmed DLQ
// writes: a Term after a dead-letter sink that returns no error (a
// func-valued field, an interface method), after a core NATS publish
// (its nil error means buffered), or after a JetStream async publish whose
// future is not awaited is reported, each naming why and its fix; a
// checked JetStream publish, an awaited future, a known synchronous
// writer (another package's, through its facts) and a core publish to a
// subject that is not a DLQ stay quiet.
package unconfirmed

import (
	"context"
	"time"

	"termbeforedlq/v3/mustsink"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Event struct {
	ID   string
	Data []byte
}

// Parker is the dead-letter store behind an interface.
type Parker interface {
	Park(ctx context.Context, ev Event)
}

type Config struct {
	deadLetterSink func(ctx context.Context, ev Event)
	onProcessed    func(ctx context.Context, ev Event)
}

type Consumer struct {
	cfg     Config
	dlq     Parker
	js      jetstream.JetStream
	legacy  nats.JetStreamContext
	nc      *nats.Conn
	sink    *mustsink.Sink
	dlqHits interface{ Add(delta float64) }
}

func event(msg jetstream.Msg) Event { return Event{ID: msg.Subject(), Data: msg.Data()} }

// A func-valued sink returns nothing: nothing says it stored the event.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	c.cfg.deadLetterSink(ctx, event(msg))
	return msg.Term() // want `Term after the DLQ write c.cfg.deadLetterSink, which returns no error, so its failure cannot be known: make the sink return its error and check it before terminating`
}

// An interface method on a dead-letter field that returns nothing.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	c.dlq.Park(ctx, event(msg))
	return msg.TermWithReason("poison") // want `TermWithReason after the DLQ write c.dlq.Park, which returns no error`
}

// A core NATS publish, checked: its nil error only means buffered.
func (c *Consumer) _(ctx context.Context, msg *nats.Msg) error {
	if err := c.nc.Publish("orders.DLQ", msg.Data); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term() // want `Term after the DLQ write c.nc.Publish, a publish of \*nats.Conn, whose nil error means buffered, not stored: publish through JetStream \(js.Publish\) and check its ack before terminating`
}

// PublishRequest is a core publish too.
func (c *Consumer) _(ctx context.Context, msg *nats.Msg) error {
	if err := c.nc.PublishRequest("orders.DLQ", "orders.dlq.ack", msg.Data); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term() // want `Term after the DLQ write c.nc.PublishRequest, a publish of \*nats.Conn`
}

// An async publish whose future nobody awaits.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := c.js.PublishAsync("orders.DLQ", msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term() // want `Term after the DLQ write c.js.PublishAsync, an async publish whose ack is not awaited: await its future \(Ok, Err, PublishAsyncComplete\) and check it before terminating`
}

// Awaited only on one branch: the timeout branch Terms unconfirmed.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	f, err := c.js.PublishAsync("orders.DLQ", msg.Data())
	if err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	select {
	case <-f.Ok():
	case <-time.After(time.Second):
		return msg.Term() // want `Term after the DLQ write c.js.PublishAsync, an async publish whose ack is not awaited`
	}
	return msg.Term()
}

// Quiet: a JetStream publish, checked.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := c.js.Publish(ctx, "orders.DLQ", msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Quiet: the future is awaited before Term.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	f, err := c.js.PublishAsync("orders.DLQ", msg.Data())
	if err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	<-f.Ok()
	return msg.Term()
}

// Quiet: a select on Ok and Err, the failure Naks.
func (c *Consumer) _(ctx context.Context, msg *nats.Msg) error {
	f, err := c.legacy.PublishAsync("orders.DLQ", msg.Data)
	if err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	select {
	case <-f.Ok():
	case <-f.Err():
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Quiet: all pending async publishes complete first.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := c.js.PublishAsync("orders.DLQ", msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	<-c.js.PublishAsyncComplete()
	return msg.Term()
}

// Quiet: a void writer known (facts) to panic when its write fails.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	c.sink.MustDeadLetter(ctx, msg)
	return msg.Term()
}

// Quiet: a core publish to a subject that is not a dead-letter queue.
func (c *Consumer) _(ctx context.Context, msg *nats.Msg) error {
	if err := c.nc.Publish("orders.audit", msg.Data); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Quiet: a void callback not named like a dead-letter queue, and a
// counter of dead letters, which stores nothing.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	c.cfg.onProcessed(ctx, event(msg))
	c.dlqHits.Add(1)
	return msg.Term()
}

// A void writer that logs its failure swallows it (reported as before).
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) error {
	c.sink.DeadLetterQuietly(ctx, msg)
	return msg.Term() // want `Term after the DLQ write c.sink.DeadLetterQuietly whose error is not checked`
}
