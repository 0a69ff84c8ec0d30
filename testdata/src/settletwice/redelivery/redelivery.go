// Package redelivery: a second settlement after an Ack loses nothing on a
// message that nothing redelivers (an ordered consumer's, an ephemeral
// replay reader's read once, a core NATS subscription's), so settletwice
// leaves those alone (contract version 3); a durable consumer's message
// is still reported.
package redelivery

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Handler func(ctx context.Context, msg jetstream.Msg) error

type Replayer struct {
	js     jetstream.JetStream
	nc     *nats.Conn
	stream string
	log    *slog.Logger
}

// Replay feeds a one-off ephemeral reader's messages to h: nothing
// redelivers them, so the Term after the Ack is only bookkeeping.
func (r *Replayer) Replay(ctx context.Context, subject string, h Handler) (int, error) {
	cons, err := r.js.CreateConsumer(ctx, r.stream, jetstream.ConsumerConfig{
		FilterSubject: subject,
		DeliverPolicy: jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return 0, err
	}
	batch, err := cons.FetchNoWait(500)
	if err != nil {
		return 0, err
	}
	n := 0
	for msg := range batch.Messages() {
		_ = msg.Ack()
		if err := h(ctx, msg); err != nil {
			r.log.Warn("replay failed", "subject", msg.Subject(), "err", err)
			_ = msg.Term()
			continue
		}
		n++
	}
	return n, batch.Error()
}

// Tail follows an ordered consumer: nothing redelivers its messages.
func (r *Replayer) Tail(ctx context.Context, h Handler) error {
	cons, err := r.js.OrderedConsumer(ctx, r.stream, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(msg jetstream.Msg) {
		_ = msg.Ack()
		if err := h(ctx, msg); err != nil {
			_ = msg.Nak()
		}
	})
	return err
}

// Notes listens on core NATS: a Nak there redelivers nothing.
func (r *Replayer) Notes(ctx context.Context, h func(*nats.Msg) error) error {
	_, err := r.nc.Subscribe("notes.>", func(m *nats.Msg) {
		_ = m.Ack()
		if err := h(m); err != nil {
			_ = m.Nak()
		}
	})
	return err
}

// Work reads a durable consumer: the server would redeliver a Nak'd
// message, but the Ack before the work already settled it.
func (r *Replayer) Work(ctx context.Context, h Handler) error {
	cons, err := r.js.CreateOrUpdateConsumer(ctx, r.stream, jetstream.ConsumerConfig{Durable: "work"})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(msg jetstream.Msg) {
		_ = msg.Ack()
		if err := h(ctx, msg); err != nil {
			_ = msg.NakWithDelay(5 * time.Second) // want `NakWithDelay after Ack is ignored`
		}
	})
	return err
}

// Listen serves h on core NATS: Ack on success, Nak on error (neither
// reaches a server that would redeliver).
func (r *Replayer) Listen(ctx context.Context, subject string, h func(context.Context, *nats.Msg) error) error {
	_, err := r.nc.Subscribe(subject, func(m *nats.Msg) {
		if err := h(ctx, m); err != nil {
			_ = m.Nak()
			return
		}
		_ = m.Ack()
	})
	return err
}

// Serve serves h on the durable consumer: Ack on success, a delayed retry
// on error.
func (r *Replayer) Serve(ctx context.Context, h Handler) error {
	cons, err := r.js.CreateOrUpdateConsumer(ctx, r.stream, jetstream.ConsumerConfig{Durable: "serve"})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(msg jetstream.Msg) {
		if err := h(ctx, msg); err != nil {
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		_ = msg.Ack()
	})
	return err
}

// Start registers the same shape of handler on both: an error returned
// after the Ack is reported on the durable consumer only.
func (r *Replayer) Start(ctx context.Context) {
	_ = r.Listen(ctx, "notes.>", r.onNote)
	_ = r.Serve(ctx, r.onWork)
}

func (r *Replayer) onNote(ctx context.Context, m *nats.Msg) error {
	_ = m.Ack()
	if len(m.Data) == 0 {
		return errors.New("empty note")
	}
	return nil
}

func (r *Replayer) onWork(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	if len(msg.Data()) == 0 {
		return errors.New("empty work item") // want `returning an error after Ack is ignored: r.Serve's NakWithDelay`
	}
	return nil
}
