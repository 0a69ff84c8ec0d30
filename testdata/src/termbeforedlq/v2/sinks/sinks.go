// Package sinks holds the dead-letter helpers of the version 2 shapes: a
// checked writer, a swallowing writer, and a sender that writes wherever
// its destination argument says.
package sinks

import (
	"context"
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"
)

type Sinks struct {
	JS jetstream.JetStream
}

// Park is a checked writer: its error is the publish's.
func (s *Sinks) Park(ctx context.Context, msg jetstream.Msg) error {
	_, err := s.JS.Publish(ctx, "events.DLQ", msg.Data())
	return err
}

// Bury always parks and drops the error: a swallowing writer.
func (s *Sinks) Bury(ctx context.Context, msg jetstream.Msg) {
	_ = s.Park(ctx, msg)
}

// SendTo publishes to whatever subject it is given.
func (s *Sinks) SendTo(ctx context.Context, subject string, body []byte) error {
	_, err := s.JS.Publish(ctx, subject, body)
	return err
}

// Observe only logs: it is not a writer.
func Observe(subject string) { slog.Info("dead letter", "subject", subject) }
