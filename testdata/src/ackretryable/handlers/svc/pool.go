package svc

// Handlers kept in a worker pool's field by its constructor and called
// with the payload, not the message: `return true` (bool pool) and
// `return nil` (error pool) are the pool's Ack. A filter kept in a field
// whose caller acks whatever it says is no handler.

import (
	"context"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/pool"
)

func (s *Service) handleShipment(ctx context.Context, data []byte, meta *jetstream.MsgMetadata) bool {
	if err := s.reserve(ctx, data); err != nil {
		log.Printf("reserve (delivery %d): %v", meta.NumDelivered, err)
		return true // want `retryable error err from reserve is dropped: returning true makes pool.New Ack the message`
	}
	return true
}

// Not reported: false makes the pool retry later.
func (s *Service) handleShipmentRetry(ctx context.Context, data []byte, meta *jetstream.MsgMetadata) bool {
	if err := s.reserve(ctx, data); err != nil {
		log.Printf("reserve (delivery %d): %v", meta.NumDelivered, err)
		return false
	}
	return true
}

func (s *Service) handleInvoice(ctx context.Context, data []byte) error {
	if err := s.reserve(ctx, data); err != nil {
		log.Printf("reserve: %v", err)
		return nil // want `retryable error err from reserve is dropped: returning nil makes pool.NewErr Ack the message`
	}
	return nil
}

// Not reported: the tap acks every message whatever its filter says.
func (s *Service) keepLarge(data []byte) bool {
	if err := s.reserve(context.Background(), data); err != nil {
		return true
	}
	return len(data) > 1024
}

func (s *Service) Pools(cons jetstream.Consumer) (*pool.Pool, *pool.Pool, *pool.ErrPool, *pool.Tap) {
	return pool.New(cons, 4, s.handleShipment, pool.WithBackoff(0)),
		pool.New(cons, 4, s.handleShipmentRetry),
		pool.NewErr(cons, s.handleInvoice),
		pool.NewTap(s.keepLarge)
}
