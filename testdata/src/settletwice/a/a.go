// Package a holds the shapes settletwice reports: a Nak or a Term of a
// message after it was already acknowledged, which the server ignores.
package a

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Order struct{ ID string }

type Store interface {
	Save(ctx context.Context, data []byte) error
}

type Projector struct {
	store  Store
	logger *slog.Logger
}

// Acked early "so the broker does not redeliver while we work"; the
// NakWithDelay on failure is ignored.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	if err := p.store.Save(ctx, msg.Data()); err != nil {
		_ = msg.NakWithDelay(5 * time.Second) // want `NakWithDelay after Ack is ignored: the message was acknowledged before the work that failed; acknowledge after the work`
	}
}

// The same with a bare Nak.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) error {
	if err := msg.Ack(); err != nil {
		return err
	}
	if err := p.store.Save(ctx, msg.Data()); err != nil {
		return msg.Nak() // want `Nak after Ack is ignored`
	}
	return nil
}

// A Term after AckSync: the termination never happens.
func (p *Projector) _(ctx context.Context, msg *nats.Msg) {
	msg.AckSync()
	if len(msg.Data) == 0 {
		msg.Term() // want `Term after AckSync is ignored`
		return
	}
	_ = p.store.Save(ctx, msg.Data)
}

// DoubleAck, then TermWithReason.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	if err := msg.DoubleAck(ctx); err != nil {
		p.logger.Error("ack", "err", err)
		return
	}
	if err := p.store.Save(ctx, msg.Data()); errors.Is(err, context.Canceled) {
		_ = msg.TermWithReason("canceled") // want `Term after DoubleAck is ignored`
	}
}

// The Ack's error is assigned, checked, and then the work fails.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	err := msg.Ack()
	if err != nil {
		return
	}
	if err = p.store.Save(ctx, msg.Data()); err != nil {
		msg.Nak() // want `Nak after Ack is ignored`
	}
}

// A helper that always Naks, called after the Ack.
func retryLater(msg jetstream.Msg) {
	_ = msg.NakWithDelay(10 * time.Second)
}

func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	msg.Ack()
	if err := p.store.Save(ctx, msg.Data()); err != nil {
		retryLater(msg) // want `call to retryLater \(it NakWithDelays the message\) after Ack is ignored`
	}
}

// A helper that always Acks, then a Term.
func done(msg jetstream.Msg) {
	_ = msg.Ack()
}

func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	done(msg)
	if err := p.store.Save(ctx, msg.Data()); err != nil {
		msg.Term() // want `Term after Ack in done is ignored`
	}
}

// A message of a batch: acked, then Naked in the same iteration.
func (p *Projector) _(ctx context.Context, batch jetstream.MessageBatch) {
	for msg := range batch.Messages() {
		msg.Ack()
		if err := p.store.Save(ctx, msg.Data()); err != nil {
			msg.Nak() // want `Nak after Ack is ignored`
		}
	}
}

// Only the first settlement after the Ack is reported: the Nak after the
// Term is the Term's business, and the message is gone by then.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	if err := p.store.Save(ctx, msg.Data()); err != nil {
		_ = msg.Term() // want `Term after Ack is ignored`
		_ = msg.Nak()
	}
}
