// Package a holds the shapes dlqunchecked reports: an Ack around a DLQ
// write that may have been lost, so the message and its evidence are both
// gone.
package a

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Event struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

type Relay struct {
	js     jetstream.JetStream
	nc     *nats.Conn
	jsctx  nats.JetStreamContext // the legacy JetStream API
	dlq    DeadLetters
	logger *slog.Logger

	deadLetterSubject string
}

// DeadLetters is the relay's dead-letter store.
type DeadLetters interface {
	Put(ctx context.Context, data []byte, reason string) error
}

// moveToDLQ is a named DLQ writer: its error is the write's.
func (r *Relay) moveToDLQ(ctx context.Context, msg jetstream.Msg, reason string) error {
	_, err := r.js.Publish(ctx, "relay.DLQ."+reason, msg.Data())
	return err
}

// The DLQ publish fails and is only logged, then the message is acked.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) {
	if _, err := r.js.Publish(ctx, "relay.DLQ", msg.Data()); err != nil {
		r.logger.Error("dead letter failed", "err", err)
	}
	msg.Ack() // want `Ack on the failure path of the DLQ write r.js.Publish loses the message and its evidence: on failure NakWithDelay and return instead of acking`
}

// The same through a named writer whose error is assigned and only logged.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	err := r.moveToDLQ(ctx, msg, "schema")
	if err != nil {
		log.Printf("moveToDLQ: %v", err)
	}
	return msg.Ack() // want `Ack on the failure path of the DLQ write r.moveToDLQ`
}

// The write's error is discarded outright.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	_ = r.moveToDLQ(ctx, msg, "schema")
	return msg.Ack() // want `Ack after the DLQ write r.moveToDLQ whose error is not checked`
}

// A bare write statement drops the error too; AckSync is an Ack.
func (r *Relay) _(ctx context.Context, msg *nats.Msg) error {
	r.nc.Publish("relay.dead-letter", msg.Data)
	return msg.AckSync() // want `AckSync after the DLQ write r.nc.Publish whose error is not checked`
}

// Ack first, then the DLQ write: the same loss when the write fails.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if err := msg.Ack(); err != nil { // want `Ack before the DLQ write r.dlq.Put: if the write fails the message and its evidence are gone`
		return err
	}
	return r.dlq.Put(ctx, msg.Data(), "rejected")
}

// A deferred DLQ write runs after the Ack.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	defer r.moveToDLQ(ctx, msg, "deferred")
	return msg.Ack() // want `Ack before the deferred DLQ write r.moveToDLQ runs`
}

// A deferred Ack deferred after a deferred DLQ write runs first: deferred
// calls run last in, first out.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	defer r.moveToDLQ(ctx, msg, "deferred")
	defer msg.Ack()
	return nil // want `the deferred Ack \(running at this return\) before the deferred DLQ write r.moveToDLQ runs`
}

// A DLQ write started with go is not ordered before the Ack.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) {
	go r.moveToDLQ(ctx, msg, "async")
	msg.Ack() // want `Ack not ordered after the DLQ write r.moveToDLQ started with go`
}

// A dead-letter destination passed as an argument (contract version 2).
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) {
	if err := r.sendEvent(ctx, r.deadLetterSubject, msg.Data()); err != nil {
		r.logger.Warn("dead letter", "err", err)
	}
	msg.Ack() // want `Ack on the failure path of the DLQ write r.sendEvent`
}

func (r *Relay) sendEvent(ctx context.Context, subject string, body []byte) error {
	_, err := r.js.Publish(ctx, subject, body)
	return err
}

// The decode fails, the dead letter is written, its failure logged, and the
// message acked anyway.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	var ev Event
	if err := json.Unmarshal(msg.Data(), &ev); err != nil {
		if werr := r.moveToDLQ(ctx, msg, "decode"); werr != nil {
			r.logger.Error("dlq", "err", werr)
		}
		return msg.Ack() // want `Ack on the failure path of the DLQ write r.moveToDLQ`
	}
	return msg.Ack()
}

// A Consume callback: the callback's body is a function of its own.
func (r *Relay) consume(c jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		var ev Event
		if err := json.Unmarshal(msg.Data(), &ev); err != nil {
			_, _ = r.js.Publish(context.Background(), "relay.DLQ", msg.Data())
			msg.Ack() // want `Ack after the DLQ write r.js.Publish whose error is not checked`
			return
		}
		msg.Ack()
	})
}

// A legacy JetStream subscription handler with PublishMsg to a
// dead-letter subject. (A core NATS subscription's messages are not
// judged: nothing redelivers them.)
func (r *Relay) subscribe() (*nats.Subscription, error) {
	return r.jsctx.Subscribe("relay.in", func(msg *nats.Msg) {
		dead := nats.NewMsg("relay.DLQ")
		dead.Data = msg.Data
		if err := r.nc.PublishMsg(dead); err != nil {
			log.Println("dead letter:", err)
		}
		msg.Ack() // want `Ack on the failure path of the DLQ write r.nc.PublishMsg`
	})
}

// A function literal called on the spot acks before the write.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	func() { // want `call to a function literal that may Ack the message before the DLQ write r.moveToDLQ`
		msg.Ack()
	}()
	return r.moveToDLQ(ctx, msg, "late")
}

// Delivery is the handler-side interface people write for testability:
// a message by its method set.
type Delivery interface {
	Data() []byte
	Ack() error
	Nak() error
}

func (r *Relay) _(ctx context.Context, d Delivery) error {
	if err := r.dlq.Put(ctx, d.Data(), "poison"); err != nil {
		log.Printf("dlq: %v", err)
	}
	return d.Ack() // want `Ack on the failure path of the DLQ write r.dlq.Put`
}

// DoubleAck is an Ack.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if err := r.moveToDLQ(ctx, msg, "x"); err != nil {
		fmt.Println("dlq failed:", err)
	}
	return msg.DoubleAck(ctx) // want `DoubleAck on the failure path of the DLQ write r.moveToDLQ`
}

// The write's error is overwritten before it is checked.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	err := r.moveToDLQ(ctx, msg, "x")
	err = r.audit(ctx, msg)
	if err != nil {
		return err
	}
	return msg.Ack() // want `Ack after the DLQ write r.moveToDLQ whose error is not checked`
}

func (r *Relay) audit(ctx context.Context, msg jetstream.Msg) error { return nil }

// buryInDLQ is named like a DLQ writer, returns nothing and drops the
// write's error: a swallowing writer, whatever its name says.
func (r *Relay) buryInDLQ(ctx context.Context, msg jetstream.Msg) {
	if err := r.dlq.Put(ctx, msg.Data(), "buried"); err != nil {
		r.logger.Error("bury", "err", err)
		return
	}
	r.logger.Info("buried")
}

func (r *Relay) _(ctx context.Context, msg jetstream.Msg) {
	r.buryInDLQ(ctx, msg)
	msg.Ack() // want `Ack after the DLQ write r.buryInDLQ whose error is not checked`
}

// A pending deferred Ack runs at the return on the write's failure path.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	defer msg.Ack()
	if err := r.moveToDLQ(ctx, msg, "x"); err != nil {
		r.logger.Error("dlq", "err", err)
		return err // want `the deferred Ack \(running at this return\) on the failure path of the DLQ write r.moveToDLQ`
	}
	return nil
}

// So does a deferred literal that only Acks.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	defer func() { _ = msg.Ack() }()
	if err := r.moveToDLQ(ctx, msg, "x"); err != nil {
		return err // want `the deferred Ack \(running at this return\) on the failure path of the DLQ write r.moveToDLQ`
	}
	return nil
}
