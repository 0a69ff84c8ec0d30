// Package billing declares message handlers that main registers with the
// bus: this package cannot know they are handlers, so it exports the
// returns that would Ack a permanent failure without evidence
// (PermanentDropFact) and the package that registers them reports them
// (cmd/retrylint's TestForeignHandler). It dead-letters elsewhere; a handler that
// dead-letters first, or decides with errors.Is, exports nothing.
package billing

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Handlers struct {
	js     jetstream.JetStream
	charge func(context.Context, []byte) error
	log    *slog.Logger
}

func (h *Handlers) publishDLQ(ctx context.Context, msg jetstream.Msg) error {
	_, err := h.js.Publish(ctx, "billing.DLQ", msg.Data())
	return err
}

// HandleCharge logs a permanent failure and returns nil: the bus Acks it.
func (h *Handlers) HandleCharge(ctx context.Context, msg jetstream.Msg) error { // want HandleCharge:"acks a permanent failure without evidence if a caller acks on nil"
	if err := h.charge(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			return err
		}
		h.log.Error("charge failed for good", "err", err)
		return nil // reported where it is registered (HandleCharge's fact)
	}
	return nil
}

// HandleRefund dead-letters, checks, then returns nil: quiet.
func (h *Handlers) HandleRefund(ctx context.Context, msg jetstream.Msg) error {
	if err := h.charge(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			return err
		}
		if derr := h.publishDLQ(ctx, msg); derr != nil {
			return derr
		}
		h.log.Warn("charge dead-lettered", "err", err)
		return nil
	}
	return nil
}

// HandleDuplicate decides about a known error: "already charged" is
// done, and Acking it is right.
func (h *Handlers) HandleDuplicate(ctx context.Context, msg jetstream.Msg) error {
	if err := h.charge(ctx, msg.Data()); err != nil {
		if errors.Is(err, ErrAlreadyCharged) {
			return nil
		}
		return err
	}
	return nil
}

// Audit has a handler's shape too: its fact reports nothing unless a
// package registers it with a bus that Acks on nil.
func (h *Handlers) Audit(ctx context.Context, msg jetstream.Msg) error { // want Audit:"acks a permanent failure without evidence if a caller acks on nil"
	if err := h.charge(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			return err
		}
		return nil
	}
	return nil
}

var ErrAlreadyCharged = errors.New("already charged")
