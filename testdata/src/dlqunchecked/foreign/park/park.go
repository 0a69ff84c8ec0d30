// Package park declares handlers that another package registers: nothing
// here says they are handlers, so the returns that would lose a DLQ write
// if their caller Acked on nil are exported (LostWriteFact) and reported
// where they are registered (dlqunchecked/foreign/app).
package park

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"
)

type Service struct {
	js jetstream.JetStream
}

func (s *Service) writeDLQ(ctx context.Context, msg jetstream.Msg) error { return nil }

// HandleParked returns nil on the write's failure path.
func (s *Service) HandleParked(ctx context.Context, msg jetstream.Msg) error { // want HandleParked:"loses a DLQ write if a caller acks on nil"
	if err := s.writeDLQ(ctx, msg); err != nil {
		log.Print(err)
	}
	return nil
}

// HandleAsync returns nil after an async publish whose ack is not awaited.
func (s *Service) HandleAsync(ctx context.Context, msg jetstream.Msg) error { // want HandleAsync:"loses a DLQ write if a caller acks on nil"
	if _, err := s.js.PublishAsync("orders.dead-letter", msg.Data()); err != nil {
		return err
	}
	return nil
}

// HandleParkedFine returns the write's error.
func (s *Service) HandleParkedFine(ctx context.Context, msg jetstream.Msg) error {
	if err := s.writeDLQ(ctx, msg); err != nil {
		return err
	}
	return nil
}
