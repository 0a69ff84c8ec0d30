// Package a proves the defects termbeforedlq reports in one package: a
// Term (or TermWithReason, or a local may-Term helper) from which a DLQ
// write is reachable, a Term before a deferred DLQ write or one started
// with go, a Term after a DLQ write whose error is discarded or unchecked,
// and a Term on a DLQ write's failure path; with jetstream.Msg, *nats.Msg
// and a handler-side interface, in loops and in closures.
package a

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DeadLetterWriter stores messages given up on.
type DeadLetterWriter interface {
	Write(ctx context.Context, subject string, data []byte) error
}

// Delivery is the handler-side message interface the service tests with.
type Delivery interface {
	Ack() error
	Nak() error
	NakWithDelay(d time.Duration) error
	Term() error
	Data() []byte
	Subject() string
}

// OrderConsumer handles order events from JetStream.
type OrderConsumer struct {
	js     jetstream.JetStream
	nc     *nats.Conn
	dlq    DeadLetterWriter
	stream string
	logger *slog.Logger
	// OnDeadLetter is the hook the service installs to park a message.
	OnDeadLetter func(ctx context.Context, data []byte) error
}

func (c *OrderConsumer) apply(ctx context.Context, data []byte) error { return nil }

func permanent(err error) bool { return err != nil }

// publishDLQ writes the message to the orders DLQ subject.
func (c *OrderConsumer) publishDLQ(ctx context.Context, msg jetstream.Msg) error {
	_, err := c.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

// archive writes the DLQ and returns nothing.
func (c *OrderConsumer) archive(ctx context.Context, msg jetstream.Msg) {
	_ = c.publishDLQ(ctx, msg)
}

// terminate is a local may-Term helper.
func terminate(msg jetstream.Msg, reason string) {
	_ = msg.TermWithReason(reason)
}

// Direct Term, then the DLQ write.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) {
	if err := c.apply(ctx, msg.Data()); permanent(err) {
		_ = msg.Term() // want `Term before the DLQ write c\.js\.Publish: write the DLQ and check its error first; on failure NakWithDelay and return`
		if _, err := c.js.Publish(ctx, "orders.DLQ", msg.Data()); err != nil {
			c.logger.Error("dead-letter", "err", err)
		}
	}
}

// TermWithReason, then a write through a field named dlq.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	if err := c.apply(ctx, msg.Data()); err != nil {
		_ = msg.TermWithReason("invalid order") // want `TermWithReason before the DLQ write c\.dlq\.Write`
		return c.dlq.Write(ctx, msg.Subject(), msg.Data())
	}
	return msg.Ack()
}

// The OnDeadLetter hook field, after Term.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write c\.OnDeadLetter`
	return c.OnDeadLetter(ctx, msg.Data())
}

// A local helper that publishes to the DLQ, after Term, on a joined path.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg, err error) error {
	if permanent(err) {
		msg.Term() // want `Term before the DLQ write c\.publishDLQ`
	} else {
		msg.Nak()
	}
	if err := c.publishDLQ(ctx, msg); err != nil {
		return err
	}
	return nil
}

// The subject is built with Sprintf; its format names the DLQ.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write c\.js\.Publish`
	_, err := c.js.Publish(ctx, fmt.Sprintf("%s.dead-letter", c.stream), msg.Data())
	return err
}

// Legacy API: the subject is set on the message that PublishMsg sends.
func _(c *OrderConsumer, msg *nats.Msg) error {
	if err := msg.Term(); err != nil { // want `Term before the DLQ write c\.nc\.PublishMsg`
		return err
	}
	dm := nats.NewMsg(msg.Subject)
	dm.Subject = "orders.DLQ"
	dm.Data = msg.Data
	return c.nc.PublishMsg(dm)
}

// Handler-side interface: Term, then the write.
func _(c *OrderConsumer, ctx context.Context, d Delivery) error {
	d.Term() // want `Term before the DLQ write c\.dlq\.Write`
	return c.dlq.Write(ctx, d.Subject(), d.Data())
}

// A local may-Term helper, then the write: reported at the helper's call.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	terminate(msg, "schema mismatch") // want `call to terminate may Term the message before the DLQ write c\.publishDLQ`
	return c.publishDLQ(ctx, msg)
}

// A deferred DLQ write runs after the Term.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	defer c.publishDLQ(ctx, msg)
	return msg.Term() // want `Term before the deferred DLQ write c\.publishDLQ runs`
}

// A deferred function literal that writes the DLQ is a deferred write.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	defer func() {
		if err := c.publishDLQ(ctx, msg); err != nil {
			c.logger.Error("dead-letter", "err", err)
		}
	}()
	return msg.Term() // want `Term before the deferred DLQ write in a function literal runs`
}

// A DLQ write started with go is not ordered before the Term.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	go c.publishDLQ(ctx, msg)
	return msg.Term() // want `Term not ordered after the DLQ write c\.publishDLQ started with go`
}

// Also when the write returns nothing to check.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	go c.archive(ctx, msg)
	return msg.Term() // want `Term not ordered after the DLQ write c\.archive started with go`
}

// The write's error is discarded with _ =.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	_ = c.publishDLQ(ctx, msg)
	return msg.Term() // want `Term after the DLQ write c\.publishDLQ whose error is not checked: check its error first; on failure NakWithDelay and return`
}

// The write is a bare expression statement.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	c.js.Publish(ctx, "orders.DLQ", msg.Data())
	return msg.Term() // want `Term after the DLQ write c\.js\.Publish whose error is not checked`
}

// The error is assigned, only logged, never checked.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	err := c.dlq.Write(ctx, msg.Subject(), msg.Data())
	c.logger.Error("dead-lettered", "err", err)
	return msg.Term() // want `Term after the DLQ write c\.dlq\.Write whose error is not checked`
}

// The error is overwritten before the check.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	err := c.publishDLQ(ctx, msg)
	err = c.apply(ctx, nil)
	if err != nil {
		return err
	}
	return msg.Term() // want `Term after the DLQ write c\.publishDLQ whose error is not checked`
}

// The failure branch logs and falls through to Term.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	if err := c.publishDLQ(ctx, msg); err != nil {
		log.Printf("dead-letter %s: %v", msg.Subject(), err)
	}
	return msg.Term() // want `Term on the failure path of the DLQ write c\.publishDLQ: on failure NakWithDelay and return instead of terminating`
}

// The failure branch Naks but does not return.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	err := c.OnDeadLetter(ctx, msg.Data())
	switch {
	case err != nil:
		msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term() // want `Term on the failure path of the DLQ write c\.OnDeadLetter`
}

// The write is tested in place.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	if c.publishDLQ(ctx, msg) != nil {
		c.logger.Warn("dead-letter failed")
	}
	return msg.Term() // want `Term on the failure path of the DLQ write c\.publishDLQ`
}

// A batch: Term, then the write, in the same iteration.
func _(c *OrderConsumer, ctx context.Context, batch jetstream.MessageBatch) {
	for msg := range batch.Messages() {
		if err := c.apply(ctx, msg.Data()); err != nil {
			msg.Term() // want `Term before the DLQ write c\.publishDLQ`
			if err := c.publishDLQ(ctx, msg); err != nil {
				continue
			}
			continue
		}
		msg.Ack()
	}
}

// A Consume handler, a closure.
func _(c *OrderConsumer, ctx context.Context, cons jetstream.Consumer) error {
	_, err := cons.Consume(func(msg jetstream.Msg) {
		if err := c.apply(ctx, msg.Data()); err != nil {
			msg.Term() // want `Term before the DLQ write c\.dlq\.Write`
			_ = c.dlq.Write(ctx, msg.Subject(), msg.Data())
			return
		}
		msg.Ack()
	})
	return err
}

// A closure that writes the DLQ, called after the Term.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	deadLetter := func() error {
		_, err := c.js.Publish(ctx, "orders.DLQ", msg.Data())
		return err
	}
	msg.Term() // want `Term before the DLQ write deadLetter`
	return deadLetter()
}

// A helper that Terms and then writes is judged inside.
func (c *OrderConsumer) giveUp(ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write c\.publishDLQ`
	return c.publishDLQ(ctx, msg)
}

// ... and its call site is a Term only against writes after it.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	return c.giveUp(ctx, msg)
}

// A subject field named like a DLQ.
func _(c *OrderConsumer, msg *nats.Msg, cfg struct{ DeadLetterSubject string }) error {
	msg.Term() // want `Term before the DLQ write c\.nc\.Publish`
	return c.nc.Publish(cfg.DeadLetterSubject, msg.Data)
}

// Same message: the write takes values derived from the Termed message
// (metadata, headers), while another message is in scope.
func _(c *OrderConsumer, ctx context.Context, msg, next jetstream.Msg) error {
	meta, err := msg.Metadata()
	if err != nil {
		return err
	}
	id := msg.Headers().Get(nats.MsgIdHdr)
	msg.Term() // want `Term before the DLQ write c\.dlq\.Write`
	next.Ack()
	return c.dlq.Write(ctx, meta.Stream, []byte(id))
}

// A message literal with a DLQ subject, legacy JetStream context.
func _(js nats.JetStreamContext, msg *nats.Msg) error {
	msg.Term() // want `Term before the DLQ write js\.PublishMsg`
	_, err := js.PublishMsg(&nats.Msg{Subject: "orders.DLQ", Data: msg.Data, Header: msg.Header})
	return err
}

// nats.NewMsg with a DLQ subject, published asynchronously.
func _(js nats.JetStreamContext, msg *nats.Msg) error {
	dm := nats.NewMsg("orders." + "dead-letter")
	dm.Data = msg.Data
	msg.Term() // want `Term before the DLQ write js\.PublishMsgAsync`
	_, err := js.PublishMsgAsync(dm)
	return err
}

// A request to a dead-letter service.
func _(nc *nats.Conn, msg *nats.Msg) error {
	msg.Term() // want `Term before the DLQ write nc\.Request`
	_, err := nc.Request("svc.deadletter.store", msg.Data, time.Second)
	return err
}

// A function literal called on the spot that Terms, then the write.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	func() { // want `call to a function literal that may Term the message before the DLQ write c\.publishDLQ`
		if len(msg.Data()) == 0 {
			msg.Term()
		}
	}()
	return c.publishDLQ(ctx, msg)
}

// A DLQ write that returns nothing, after the Term.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	if err := msg.Term(); err != nil { // want `Term before the DLQ write c\.archive`
		return err
	}
	c.archive(ctx, msg)
	return nil
}

// A swallowing writer (contract version 2): archive always writes the DLQ
// and only logs a failure, so the Term after it may follow a lost write.
func _(c *OrderConsumer, ctx context.Context, msg jetstream.Msg) error {
	c.archive(ctx, msg)
	return msg.Term() // want `Term after the DLQ write c\.archive whose error is not checked`
}
