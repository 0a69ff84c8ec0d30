// Package unconfirmed proves that dlqunchecked reports an Ack after an
// unconfirmed DLQ write (CONTRACT.md version 3): a sink that returns no
// error, a core NATS publish, an async publish whose future is not
// awaited, on a decode-failure path too (poisonack leaves a path that
// writes to this check: one defect, one report); and that a checked
// JetStream publish and an awaited future stay quiet.
package unconfirmed

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Order struct {
	ID string `json:"id"`
}

type Mover struct {
	deadLetterSink func(ctx context.Context, data []byte)
	js             jetstream.JetStream
	nc             *nats.Conn
}

// The sink returns nothing: the message is Acked with no evidence stored
// for certain.
func (m *Mover) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		m.deadLetterSink(ctx, msg.Data())
		return msg.Ack() // want `Ack after the DLQ write m.deadLetterSink, which returns no error, so its failure cannot be known: if it failed the message and its evidence are gone; make the sink return its error and check it before acking`
	}
	return msg.Ack()
}

// A core NATS publish moves the message: buffered is not stored.
func (m *Mover) _(ctx context.Context, msg *nats.Msg) error {
	if err := m.nc.Publish("orders.dead-letter", msg.Data); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Ack() // want `Ack after the DLQ write m.nc.Publish, a publish of \*nats.Conn, whose nil error means buffered, not stored`
}

// An async publish, then the Ack, then (too late) the wait.
func (m *Mover) _(ctx context.Context, msg jetstream.Msg) error {
	f, err := m.js.PublishAsync("orders.dead-letter", msg.Data())
	if err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	_ = msg.Ack() // want `Ack after the DLQ write m.js.PublishAsync, an async publish whose ack is not awaited`
	return <-f.Err()
}

// Quiet: the JetStream publish is checked before the Ack.
func (m *Mover) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := m.js.Publish(ctx, "orders.dead-letter", msg.Data()); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Ack()
}

// Quiet: the future's error is awaited before the Ack.
func (m *Mover) _(ctx context.Context, msg jetstream.Msg) error {
	f, err := m.js.PublishAsync("orders.dead-letter", msg.Data())
	if err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	select {
	case <-f.Ok():
		return msg.Ack()
	case err := <-f.Err():
		_ = msg.NakWithDelay(5 * time.Second)
		return err
	}
}
