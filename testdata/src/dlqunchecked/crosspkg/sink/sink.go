// Package sink holds dead-letter helpers of three kinds (contract version
// 2): a checked writer whose error is the write's, a swallowing writer that
// always writes and only logs a failure, and a business function that
// writes a dead letter on a rare path but returns its own error.
package sink

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"
)

type Sink struct {
	JS      jetstream.JetStream
	Subject string
}

// Park copies the message to the dead-letter stream and returns the
// publish error: a checked writer.
func (s *Sink) Park(ctx context.Context, msg jetstream.Msg, reason string) error {
	if _, err := s.JS.Publish(ctx, "billing.DLQ", msg.Data()); err != nil {
		return fmt.Errorf("park %s: %w", reason, err)
	}
	return nil
}

// Bury always parks and only logs a failure: a swallowing writer.
func (s *Sink) Bury(ctx context.Context, msg jetstream.Msg) {
	if err := s.Park(ctx, msg, "buried"); err != nil {
		slog.Error("bury failed", "err", err)
	}
}

// Reconcile does business work; on a rare path it dead-letters a record
// and carries on. Its error is about the reconciliation: a writer for
// ordering only.
func (s *Sink) Reconcile(ctx context.Context, msg jetstream.Msg) error {
	if len(msg.Data()) > 1<<20 {
		_ = s.Park(ctx, msg, "oversized")
	}
	return validate(msg.Data())
}

func validate(data []byte) error {
	if len(data) == 0 {
		return fmt.Errorf("empty record")
	}
	return nil
}
