// Package app proves DLQ-writer and may-Term facts cross package
// boundaries: calling another package's writer or may-Term helper makes a
// writer or a may-Term helper, and a configured function (-dlq-funcs) is a
// writer without any fact.
package app

import (
	"context"

	"contract/dlq/sink"

	"github.com/nats-io/nats.go/jetstream"
)

type Consumer struct{ sink *sink.Sink }

func (c *Consumer) GiveUp(ctx context.Context, msg jetstream.Msg) error { // want GiveUp:"writes DLQ"
	return c.sink.Hook(ctx, msg)
}

func (c *Consumer) Settle(ctx context.Context, msg jetstream.Msg) { // want Settle:"writes DLQ" Settle:"may Term param 1"
	_ = c.sink.ParkAndTerm(ctx, msg)
}

// Forward writes the DLQ through a local func value whose name says
// nothing of a DLQ: the literal it holds decides.
func (c *Consumer) Forward(ctx context.Context, msg jetstream.Msg) error { // want Forward:"writes DLQ"
	send := func() error { return c.sink.Hook(ctx, msg) }
	return send()
}

func Discard(reason string, msg jetstream.Msg) { // want Discard:"may Term param 1"
	sink.Drop(msg)
}

func Generic(msg jetstream.Msg) { // want Generic:"may Term param 0"
	_ = sink.Terminate(msg)
}

func Quarantined(ctx context.Context, msg jetstream.Msg) { // want Quarantined:"writes DLQ"
	_ = sink.Quarantine(ctx, msg.Data())
}

func Configure() sink.Option {
	return sink.WithDeadLetterSink("nats://dlq")
}
