// Package queue consumes orders from JetStream.
package queue

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"example.com/sdkservice/store"
)

// Consume saves each order.
func Consume(ctx context.Context, c jetstream.Consumer, s *store.Store) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		if err := s.Save(ctx, msg.Subject(), msg.Data()); err != nil {
			_ = msg.Nak()
			return
		}
		_ = msg.Ack()
	})
}
