// Package ledger declares a handler another package may register, in a
// package that writes no dead-letter queue anywhere: Acking a permanent failure is its
// policy, not an omission.
package ledger

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Ledger struct {
	post func(context.Context, []byte) error
}

func (l *Ledger) HandlePosting(ctx context.Context, msg jetstream.Msg) error {
	if err := l.post(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			return err
		}
		log.Printf("posting dropped: %v", err)
		return nil
	}
	return nil
}
