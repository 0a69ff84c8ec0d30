// Package redelivery: an Ack of a permanent failure keeps no evidence,
// but on a message that nothing redelivers (an ordered consumer's, a core
// NATS subscription's, an AckNone consumer's) there is nothing to keep:
// the stream still holds it. ackpermanent leaves those alone (contract
// version 3); the same code on a durable consumer is reported.
package redelivery

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

func retryDelay(err error) (time.Duration, bool) {
	var rd retryDelayer
	if errors.As(err, &rd) {
		return rd.RetryDelay(), true
	}
	return 0, false
}

type Index interface {
	Upsert(ctx context.Context, data []byte) error
}

type Indexer struct {
	js     jetstream.JetStream
	nc     *nats.Conn
	stream string
	index  Index
	log    *slog.Logger
}

// deadLetter keeps the evidence of the durable consumer's failures: the
// package dead-letters.
func (x *Indexer) deadLetter(ctx context.Context, msg jetstream.Msg) error {
	_, err := x.js.Publish(ctx, "index.DLQ", msg.Data())
	return err
}

func (x *Indexer) settle(ctx context.Context, msg jetstream.Msg) {
	if err := x.index.Upsert(ctx, msg.Data()); err != nil {
		if d, ok := retryDelay(err); ok {
			_ = msg.NakWithDelay(d)
			return
		}
		if err := x.deadLetter(ctx, msg); err != nil {
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		_ = msg.Term()
		return
	}
	_ = msg.Ack()
}

// Rebuild follows an ordered consumer to rebuild the index: a permanent
// failure is skipped, the stream keeps the event.
func (x *Indexer) Rebuild(ctx context.Context) error {
	cons, err := x.js.OrderedConsumer(ctx, x.stream, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(msg jetstream.Msg) {
		if err := x.index.Upsert(ctx, msg.Data()); err != nil {
			if _, ok := retryDelay(err); !ok {
				x.log.Warn("skipping event", "err", err)
				_ = msg.Ack()
				return
			}
		}
		_ = msg.Ack()
	})
	return err
}

// Hints come over core NATS: nothing redelivers them.
func (x *Indexer) Hints(ctx context.Context) error {
	_, err := x.nc.Subscribe("index.hints", func(m *nats.Msg) {
		if err := x.index.Upsert(ctx, m.Data); err != nil {
			if _, ok := retryDelay(err); !ok {
				_ = m.Ack()
				return
			}
		}
	})
	return err
}

// Live reads a durable consumer: the permanent failure is acked away.
func (x *Indexer) Live(ctx context.Context) error {
	cons, err := x.js.CreateOrUpdateConsumer(ctx, x.stream, jetstream.ConsumerConfig{Durable: "indexer"})
	if err != nil {
		return err
	}
	_, err = cons.Consume(func(msg jetstream.Msg) {
		if err := x.index.Upsert(ctx, msg.Data()); err != nil {
			if _, ok := retryDelay(err); !ok {
				_ = msg.Ack() // want `Ack after err was classified as a permanent failure`
				return
			}
			_ = msg.Nak()
			return
		}
		_ = msg.Ack()
	})
	return err
}
