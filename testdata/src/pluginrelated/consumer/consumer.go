// Package consumer is linted as golangci-lint's plugin lints it: findings
// with related locations carry them in the message, so that no related
// location becomes an issue of its own (on a line //nolint at the finding
// does not cover). Here the related location is in the finding's file.
package consumer

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type Service struct {
	handler func(context.Context, []byte) error
}

// Handle Naks bare after classifying the error: the finding names where.
func (s *Service) Handle(ctx context.Context, msg jetstream.Msg) {
	err := s.handler(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		log.Printf("retry in %s", d)
		_ = msg.Nak() // want `bare Nak redelivers transient error err at once and drops its retry delay: call NakWithDelay\(d\) \(see: line 23:14: classified as transient here\)$`
		return
	}
	_ = msg.Ack()
}

// HandleDelayed is the look-alike: it keeps the delay, nothing to report.
func (s *Service) HandleDelayed(ctx context.Context, msg jetstream.Msg) {
	err := s.handler(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		_ = msg.NakWithDelay(d)
		return
	}
	_ = msg.Ack()
}
