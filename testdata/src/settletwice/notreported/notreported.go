// Package notreported holds look-alikes settletwice must leave alone: a
// second Ack, InProgress, settlements after a Term, other messages, the
// failure branch of the Ack itself, and helpers that settle only on some
// path.
package notreported

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type Store interface {
	Save(ctx context.Context, data []byte) error
}

type Projector struct{ store Store }

// The Ack failed: retrying is right.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	if err := msg.Ack(); err != nil {
		_ = msg.NakWithDelay(time.Second)
	}
}

// The same through a variable, and through the Ack call in the condition.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	err := msg.Ack()
	if err != nil {
		_ = msg.Nak()
		return
	}
}

func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	if msg.Ack() != nil {
		_ = msg.Term()
	}
}

// A second Ack and InProgress are harmless.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	_ = msg.InProgress()
	_ = msg.AckSync()
}

// Acked after the work, settled on failure: the correct order.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	if err := p.store.Save(ctx, msg.Data()); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
	_ = msg.Ack()
}

// After a Term the message is gone as intended.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Term()
	_ = msg.Ack()
	_ = msg.Nak()
}

// Another message: the reply is acked, the request Naked.
func (p *Projector) _(ctx context.Context, req, reply jetstream.Msg) {
	_ = reply.Ack()
	if err := p.store.Save(ctx, req.Data()); err != nil {
		_ = req.Nak()
	}
}

// A batch: the next iteration's Nak concerns another message.
func (p *Projector) _(ctx context.Context, batch jetstream.MessageBatch) {
	for msg := range batch.Messages() {
		if err := p.store.Save(ctx, msg.Data()); err != nil {
			_ = msg.Nak()
			continue
		}
		_ = msg.Ack()
	}
}

// A helper that Naks only on its error path, called with nil after the
// Ack: it does not Nak here.
func finish(msg jetstream.Msg, err error) {
	if err != nil {
		_ = msg.NakWithDelay(time.Second)
		return
	}
	_ = msg.Ack()
}

func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	_ = msg.Ack()
	finish(msg, nil)
}

// A deferred Nak runs at exit: not ordered here.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	defer func() { _ = msg.Nak() }()
	_ = msg.Ack()
}

// Either-or: Ack on one branch, Nak on the other.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	if err := p.store.Save(ctx, msg.Data()); err == nil {
		_ = msg.Ack()
	} else {
		_ = msg.Nak()
	}
}
