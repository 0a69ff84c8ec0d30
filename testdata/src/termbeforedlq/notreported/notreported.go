// Package notreported proves what termbeforedlq keeps quiet about: the
// correct DLQ-first pattern and the look-alikes around it (Terms with no
// DLQ write, publishes to other subjects, DLQ-named calls that write
// nothing, writes with no error to check, writes for another message, the
// next iteration of a loop, a switch over actions, errors handed to the
// helper that decides, failure branches that return or never come back).
package notreported

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Option configures a Consumer.
type Option func(*Consumer)

// WithDeadLetterSink configures where messages are parked.
func WithDeadLetterSink(url string) Option { return func(*Consumer) {} }

// DLQ is a dead-letter store.
type DLQ interface {
	Write(ctx context.Context, data []byte) error
	Close() error
}

// NewDLQWriter opens a dead-letter store.
func NewDLQWriter(url string) (DLQ, error) { return nil, nil }

// Consumer handles payment events.
type Consumer struct {
	js     jetstream.JetStream
	legacy nats.JetStreamContext // publishes through it are stored and acked (a core nc.Publish only buffers)
	nc     *nats.Conn
	dlq    DLQ
	stream string
	logger *slog.Logger
	ready  bool
}

// MarkDeadLetterSinkReady records that the sink is usable.
func (c *Consumer) MarkDeadLetterSinkReady() { c.ready = true }

func (c *Consumer) dlqSubject() string { return c.stream + ".DLQ" }

func (c *Consumer) process(ctx context.Context, data []byte) error { return nil }

func (c *Consumer) publishDLQ(ctx context.Context, msg jetstream.Msg) error {
	_, err := c.js.Publish(ctx, "payments.DLQ", msg.Data())
	return err
}

// archive writes the DLQ and reports nothing.
func (c *Consumer) archive(ctx context.Context, msg jetstream.Msg) {
	if err := c.publishDLQ(ctx, msg); err != nil {
		c.logger.Error("archive", "err", err)
	}
}

// settle Terms when the DLQ write succeeded, and Naks with a delay when it
// did not: the error it receives decides.
func settle(msg jetstream.Msg, dlqErr error) error {
	if dlqErr != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// DLQ first, error checked, NakWithDelay and return on failure, then Term.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	if err := c.process(ctx, msg.Data()); err != nil {
		if _, err := c.js.Publish(ctx, "payments.DLQ", msg.Data()); err != nil {
			return msg.NakWithDelay(5 * time.Second)
		}
		return msg.Term()
	}
	return msg.Ack()
}

// The same with the legacy API and a message built for PublishMsg.
func _(c *Consumer, msg *nats.Msg) error {
	dm := nats.NewMsg("payments.DLQ")
	dm.Data = msg.Data
	if _, err := c.legacy.PublishMsg(dm); err != nil {
		msg.NakWithDelay(5 * time.Second)
		return err
	}
	return msg.Term()
}

// The failure branch logs, then Naks with delay and returns.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	err := c.dlq.Write(ctx, msg.Data())
	if err != nil {
		c.logger.Error("dead-letter", "err", err)
		msg.NakWithDelay(5 * time.Second)
		return err
	}
	return msg.Term()
}

// Term only on the success side of err == nil.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	if err := c.publishDLQ(ctx, msg); err == nil {
		return msg.Term()
	}
	return msg.NakWithDelay(5 * time.Second)
}

// A failure branch that never comes back.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) {
	if err := c.publishDLQ(ctx, msg); err != nil {
		log.Fatalf("dead-letter: %v", err)
	}
	msg.Term()
}

// A failure branch that panics.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) {
	if err := c.publishDLQ(ctx, msg); err != nil {
		panic(err)
	}
	msg.Term()
}

// The DLQ write is retried; the loop's failure path ends in a Nak.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.publishDLQ(ctx, msg); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Term with no DLQ write in the function.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	if err := c.process(ctx, msg.Data()); err != nil {
		return msg.Term()
	}
	return msg.Ack()
}

// Publishes to subjects that are not a DLQ.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	if _, err := c.js.Publish(ctx, "payments.audit", msg.Data()); err != nil {
		return err
	}
	_, err := c.js.Publish(ctx, fmt.Sprintf("%s.retry", c.stream), msg.Data())
	return err
}

// A reply to the requester is not a DLQ write.
func _(c *Consumer, msg *nats.Msg) error {
	msg.Term()
	return c.nc.Publish(msg.Reply, []byte("rejected"))
}

// DLQ-named calls that return no error configure or compute: no write.
func _(c *Consumer, msg jetstream.Msg) []Option {
	msg.Term()
	c.MarkDeadLetterSinkReady()
	_ = c.dlqSubject()
	return []Option{WithDeadLetterSink("nats://dlq")}
}

// Constructors and closers named like a DLQ write nothing.
func _(c *Consumer, msg jetstream.Msg) error {
	msg.Term()
	if err := c.dlq.Close(); err != nil {
		return err
	}
	_, err := NewDLQWriter("nats://dlq")
	return err
}


// Nak is not Term.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Nak()
	return c.publishDLQ(ctx, msg)
}

// The write in the next iteration concerns another message.
func _(c *Consumer, ctx context.Context, batch jetstream.MessageBatch) {
	for msg := range batch.Messages() {
		if err := c.publishDLQ(ctx, msg); err != nil {
			msg.NakWithDelay(5 * time.Second)
			continue
		}
		msg.Term()
	}
}

// Term, then continue: the loop's next write is for the next message.
func _(c *Consumer, ctx context.Context, msgs []*nats.Msg) {
	for i := 0; i < len(msgs); i++ {
		if len(msgs[i].Data) == 0 {
			msgs[i].Term()
			continue
		}
		if _, err := c.legacy.Publish("payments.DLQ", msgs[i].Data); err != nil {
			msgs[i].NakWithDelay(time.Second)
			continue
		}
		msgs[i].Term()
	}
}

// A write built from another message does not pair with this Term.
func _(c *Consumer, ctx context.Context, poison, current jetstream.Msg) error {
	current.Term()
	return c.publishDLQ(ctx, poison)
}

// Term returns; the write is on the other path.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg, malformed bool) error {
	if malformed {
		return msg.Term()
	}
	if err := c.publishDLQ(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// action is what processBusMsg decided.
type action int

const (
	actAck action = iota
	actRetry
	actTerm
	actDeadLetter
)

func processBusMsg(ctx context.Context, msg jetstream.Msg) action { return actAck }

// The processBusMsg shape: a switch performs Term and the DLQ write in
// separate cases.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	switch processBusMsg(ctx, msg) {
	case actAck:
		return msg.Ack()
	case actRetry:
		return msg.NakWithDelay(time.Second)
	case actTerm:
		msg.Term()
	case actDeadLetter:
		if err := c.publishDLQ(ctx, msg); err != nil {
			return msg.NakWithDelay(5 * time.Second)
		}
		return msg.Term()
	}
	return nil
}

// The write's error goes to the helper that decides between Term and Nak.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	err := c.dlq.Write(ctx, msg.Data())
	return settle(msg, err)
}

// The error is collected and checked through the collection.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	var errs []error
	err := c.publishDLQ(ctx, msg)
	errs = append(errs, err)
	if len(errs) > 0 && errs[0] != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// A check we cannot follow: not judged.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	err := c.publishDLQ(ctx, msg)
	if errors.Is(err, context.Canceled) {
		return err
	}
	return msg.Term()
}

// A callback that writes the DLQ, registered after Term, is not called here.
func _(c *Consumer, msg *nats.Msg) error {
	msg.Term()
	_, err := c.nc.Subscribe("payments.retry", func(m *nats.Msg) {
		if _, err := c.legacy.Publish("payments.DLQ", m.Data); err != nil {
			m.NakWithDelay(time.Second)
			return
		}
		m.Term()
	})
	return err
}

// A closure that writes the DLQ, checked and called before the Term.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	deadLetter := func() error {
		_, err := c.js.Publish(ctx, "payments.DLQ", msg.Data())
		return err
	}
	if err := deadLetter(); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// giveUp dead-letters and terminates in the right order; its callers are
// not judged for the write inside it.
func (c *Consumer) giveUp(ctx context.Context, msg jetstream.Msg) error {
	if err := c.publishDLQ(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

func _(c *Consumer, ctx context.Context, msg jetstream.Msg) {
	_ = c.giveUp(ctx, msg)
	msg.Term()
}

// A deferred Term is not judged.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	defer msg.Term()
	if err := c.publishDLQ(ctx, msg); err != nil {
		return err
	}
	return nil
}

// The error is stored in a field: not followed.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg, out *struct{ Err error }) error {
	out.Err = c.publishDLQ(ctx, msg)
	if out.Err != nil {
		return out.Err
	}
	return msg.Term()
}

func (c *Consumer) replayDeadLetters(ctx context.Context) error { return nil }

func (c *Consumer) ensureDLQStream(ctx context.Context) error { return nil }

// Replaying or setting up the DLQ reads or configures it: no write.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	if err := c.ensureDLQStream(ctx); err != nil {
		return err
	}
	return c.replayDeadLetters(ctx)
}

// Term in one branch, the DLQ write in the other.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg, dup bool) error {
	if dup {
		return msg.Term()
	} else if err := c.publishDLQ(ctx, msg); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Ack()
}

// The failure branch returns a wrapped error; the bus layer Naks it.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	if err := c.dlq.Write(ctx, msg.Data()); err != nil {
		return fmt.Errorf("dead-letter %s: %w", msg.Subject(), err)
	}
	return msg.Term()
}

// A subject computed from the message, not a DLQ.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	subject := msg.Subject() + ".processed"
	_, err := c.js.Publish(ctx, subject, msg.Data())
	return err
}

// A write started with go in one case, a Term in another.
func _(c *Consumer, ctx context.Context, msg jetstream.Msg, a action) {
	switch a {
	case actDeadLetter:
		go c.archive(ctx, msg)
		msg.Ack()
	case actTerm:
		msg.Term()
	}
}

func supersedeDLQ(ctx context.Context, m jetstream.Msg, cause error) error { return nil }

// The write takes prev, an earlier delivery of the batch: prev = m copies a
// delivery across the loop's back edge, it does not make prev the message
// Termed in this iteration.
func _(ctx context.Context, batch jetstream.MessageBatch) {
	var prev jetstream.Msg
	for m := range batch.Messages() {
		if prev != nil {
			if err := supersedeDLQ(ctx, prev, errors.New("superseded")); err != nil {
				log.Printf("forward: %v", err)
			}
		}
		if len(m.Data()) == 0 {
			_ = m.Term()
			continue
		}
		prev = m
	}
}
