// Package handlers registers handlers with a bus that Acks when they
// return nil: returning nil around a lost DLQ write acks the message and
// its evidence away.
package handlers

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/bus"
	"ackretryable/handlers/fieldbus"
	"ackretryable/helpers/settle"
)

type Projector struct {
	js jetstream.JetStream
}

func (p *Projector) publishDLQ(ctx context.Context, msg jetstream.Msg) error {
	_, err := p.js.Publish(ctx, "audit.DLQ", msg.Data())
	return err
}

// The dead letter's failure is only logged, and the handler returns nil.
func (p *Projector) project(ctx context.Context, msg jetstream.Msg) error {
	if len(msg.Data()) == 0 {
		if err := p.publishDLQ(ctx, msg); err != nil {
			slog.Error("dead letter failed", "err", err)
		}
		return nil // want `returning nil \(bus.Subscribe then Acks the message\) on the failure path of the DLQ write p.publishDLQ loses the message and its evidence`
	}
	return nil
}

// The write's error is discarded.
func (p *Projector) projectDiscard(ctx context.Context, msg jetstream.Msg) error {
	_ = p.publishDLQ(ctx, msg)
	return nil // want `returning nil \(bus.Subscribe then Acks the message\) after the DLQ write p.publishDLQ whose error is not checked`
}

// Not reported: the write is checked and its error returned.
func (p *Projector) projectChecked(ctx context.Context, msg jetstream.Msg) error {
	if err := p.publishDLQ(ctx, msg); err != nil {
		return err
	}
	return nil
}

// Not reported: not a handler.
func (p *Projector) helper(ctx context.Context, msg jetstream.Msg) error {
	_ = p.publishDLQ(ctx, msg)
	return nil
}

// Not reported: a deferred write runs before the bus acks.
func (p *Projector) projectDeferred(ctx context.Context, msg jetstream.Msg) error {
	defer p.publishDLQ(ctx, msg)
	return nil
}

// A bare write statement drops the error.
func (p *Projector) projectBare(ctx context.Context, msg jetstream.Msg) error {
	p.js.Publish(ctx, "audit.dead-letter", msg.Data())
	return nil // want `returning nil \(bus.Subscribe then Acks the message\) after the DLQ write p.js.Publish whose error is not checked`
}

// The write's error is overwritten before anyone looks at it.
func (p *Projector) projectOverwritten(ctx context.Context, msg jetstream.Msg) error {
	err := p.publishDLQ(ctx, msg)
	err = p.audit(ctx)
	if err != nil {
		return err
	}
	return nil // want `returning nil \(bus.Subscribe then Acks the message\) after the DLQ write p.publishDLQ whose error is not checked`
}

func (p *Projector) audit(ctx context.Context) error { return nil }

// A swallowing writer.
func (p *Projector) bury(ctx context.Context, msg jetstream.Msg) {
	if err := p.publishDLQ(ctx, msg); err != nil {
		slog.Error("bury", "err", err)
	}
}

func (p *Projector) projectBuried(ctx context.Context, msg jetstream.Msg) error {
	p.bury(ctx, msg)
	return nil // want `returning nil \(bus.Subscribe then Acks the message\) after the DLQ write p.bury whose error is not checked`
}

// A write started with go is not ordered before the caller's Ack.
func (p *Projector) projectAsync(ctx context.Context, msg jetstream.Msg) error {
	go p.publishDLQ(ctx, msg)
	return nil // want `returning nil \(bus.Subscribe then Acks the message\) not ordered after the DLQ write p.publishDLQ started with go`
}

// Not reported: the write succeeded before the handler returns nil.
func (p *Projector) projectMoved(ctx context.Context, msg jetstream.Msg) error {
	if err := p.publishDLQ(ctx, msg); err != nil {
		return err
	}
	slog.Info("moved to the DLQ")
	return nil
}

func (p *Projector) Register(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, p.projectBare)
	_, _ = bus.Subscribe(c, p.projectOverwritten)
	_, _ = bus.Subscribe(c, p.projectBuried)
	_, _ = bus.Subscribe(c, p.projectAsync)
	_, _ = bus.Subscribe(c, p.projectMoved)
	_, _ = bus.Subscribe(c, bus.Logging(p.projectWrapped))
	_, _ = bus.Subscribe(c, func(ctx context.Context, msg jetstream.Msg) error {
		_ = p.publishDLQ(ctx, msg)
		return nil // want `returning nil \(bus.Subscribe then Acks the message\) after the DLQ write p.publishDLQ whose error is not checked`
	})
	_, _ = bus.Subscribe(c, p.project)
	_, _ = bus.Subscribe(c, p.projectDiscard)
	_, _ = bus.Subscribe(c, p.projectChecked)
	_, _ = bus.Subscribe(c, p.projectDeferred)
	_ = p.helper(context.Background(), nil)
}

// Wrapped by middleware: still a handler.
func (p *Projector) projectWrapped(ctx context.Context, msg jetstream.Msg) error {
	if err := p.publishDLQ(ctx, msg); err != nil {
		slog.Warn("dlq", "err", err)
	}
	return nil // want `returning nil \(bus.Subscribe then Acks the message\) on the failure path of the DLQ write p.publishDLQ`
}

// Kept in a map of routes.
func (p *Projector) projectRouted(ctx context.Context, msg jetstream.Msg) error {
	_ = p.publishDLQ(ctx, msg)
	return nil // want `returning nil \(bus.Subscribe then Acks the message\) after the DLQ write p.publishDLQ whose error is not checked`
}

// Stored in a bus's handler field.
func (p *Projector) projectStored(ctx context.Context, msg jetstream.Msg) error {
	if err := p.publishDLQ(ctx, msg); err != nil {
		slog.Warn("dlq", "err", err)
	}
	return nil // want `returning nil \(fieldbus.NewConsumer then Acks the message\) on the failure path of the DLQ write p.publishDLQ`
}

// Held in a variable.
func (p *Projector) RegisterVar(c jetstream.Consumer) {
	h := func(ctx context.Context, msg jetstream.Msg) error {
		p.bury(ctx, msg)
		return nil // want `returning nil \(bus.Subscribe then Acks the message\) after the DLQ write p.bury whose error is not checked`
	}
	_, _ = bus.Subscribe(c, h)
	routes := map[string]bus.Handler{"audit.routed": p.projectRouted}
	for _, r := range routes {
		_, _ = bus.Subscribe(c, r)
	}
	_ = fieldbus.NewConsumer(p.projectStored)
	_, _ = bus.Subscribe(c, p.projectLookedUp)
	_, _ = bus.Subscribe(c, p.projectFine)
	_, _ = bus.Subscribe(c, p.projectReturnsWrite)
	_, _ = bus.Subscribe(c, p.projectOtherMsg)
}

// Not reported: the write's error is returned for the bus to retry.
func (p *Projector) projectReturnsWrite(ctx context.Context, msg jetstream.Msg) error {
	return p.publishDLQ(ctx, msg)
}

// Not reported: a handler with no DLQ write.
func (p *Projector) projectFine(ctx context.Context, msg jetstream.Msg) error {
	slog.Info("projected", "subject", msg.Subject())
	return nil
}

// Not reported: the write is checked, its failure returned; the nil
// return follows a successful write.
func (p *Projector) projectLookedUp(ctx context.Context, msg jetstream.Msg) error {
	err := p.publishDLQ(ctx, msg)
	if err != nil {
		return err
	}
	return nil
}

// Not reported: the dead letter concerns another message.
func (p *Projector) projectOtherMsg(ctx context.Context, msg jetstream.Msg) error {
	var prev jetstream.Msg
	if prev != nil {
		_ = p.publishDLQ(ctx, prev)
	}
	return nil
}

// Deferred Acks around lost writes, in plain functions.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	_ = p.publishDLQ(ctx, msg)
	return // want `the deferred Ack \(running at this return\) after the DLQ write p.publishDLQ whose error is not checked`
}

func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	p.bury(ctx, msg)
	return // want `the deferred Ack \(running at this return\) after the DLQ write p.bury whose error is not checked`
}

// Not reported: a deferred Ack after a checked write whose failure Naks.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	if err := p.publishDLQ(ctx, msg); err != nil {
		_ = msg.NakWithDelay(5e9)
		return
	}
}

// Not reported: a deferred Ack registered after the write succeeded.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) error {
	if err := p.publishDLQ(ctx, msg); err != nil {
		return msg.NakWithDelay(5e9)
	}
	defer msg.Ack()
	return nil
}

// Not reported: a checked write whose failure is returned wrapped.
func (p *Projector) projectWrapped2(ctx context.Context, msg jetstream.Msg) error {
	if err := p.publishDLQ(ctx, msg); err != nil {
		return fmt.Errorf("dead letter: %w", err)
	}
	return nil
}

// Not reported: the failure is retried later explicitly before returning
// an error.
func (p *Projector) projectNaked(ctx context.Context, msg jetstream.Msg) error {
	if err := p.publishDLQ(ctx, msg); err != nil {
		_ = msg.NakWithDelay(5e9)
		return err
	}
	return nil
}

// Not reported: a publish to an ordinary subject.
func (p *Projector) projectForward(ctx context.Context, msg jetstream.Msg) error {
	_, _ = p.js.Publish(ctx, "audit.out", msg.Data())
	return nil
}

func (p *Projector) RegisterMore(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, p.projectWrapped2)
	_, _ = bus.Subscribe(c, p.projectNaked)
	_, _ = bus.Subscribe(c, p.projectForward)
}

// A helper of another package that always Acks, after a lost write.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) {
	if err := p.publishDLQ(ctx, msg); err != nil {
		slog.Warn("dlq", "err", err)
	}
	settle.Done(msg, "moved") // want `call to settle.Done may Ack the message on the failure path of the DLQ write p.publishDLQ`
}

// Not reported: Finish Acks only a nil error, and it is given the write's.
func (p *Projector) _(ctx context.Context, msg jetstream.Msg) error {
	err := p.publishDLQ(ctx, msg)
	return settle.Finish(msg, err)
}
