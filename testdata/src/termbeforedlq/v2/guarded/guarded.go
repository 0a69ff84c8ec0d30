// Package guarded holds a business function that, four calls down and on
// a rare path, writes a dead letter but returns its own error: a writer
// for ordering only (the processGuarded false positive of version 1).
package guarded

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

var ErrRejected = errors.New("rejected by the rules engine")

type Engine struct {
	JS jetstream.JetStream
}

func (e *Engine) ProcessGuarded(ctx context.Context, msg jetstream.Msg) error {
	return e.evaluate(ctx, msg)
}

func (e *Engine) evaluate(ctx context.Context, msg jetstream.Msg) error {
	if err := e.applyRules(ctx, msg); err != nil {
		return ErrRejected
	}
	return nil
}

func (e *Engine) applyRules(ctx context.Context, msg jetstream.Msg) error {
	if len(msg.Data()) > 1<<20 {
		e.quarantine(ctx, msg)
	}
	return e.check(msg.Data())
}

func (e *Engine) quarantine(ctx context.Context, msg jetstream.Msg) {
	if _, err := e.JS.Publish(ctx, "rules.dead-letter", msg.Data()); err != nil {
		return
	}
}

func (e *Engine) check(data []byte) error {
	if len(data) == 0 {
		return ErrRejected
	}
	return nil
}
