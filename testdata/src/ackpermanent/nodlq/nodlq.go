// Package nodlq proves ackpermanent is quiet in a package that makes no
// DLQ write anywhere: acking a permanent failure is its policy there.
package nodlq

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

type retryDelayer interface{ RetryDelay() time.Duration }

type Indexer struct {
	index func(context.Context, []byte) error
}

func (ix *Indexer) _(ctx context.Context, msg jetstream.Msg) {
	if err := ix.index(ctx, msg.Data()); err != nil {
		var rd retryDelayer
		if errors.As(err, &rd) {
			_ = msg.NakWithDelay(rd.RetryDelay())
			return
		}
		_ = msg.Ack()
		return
	}
	_ = msg.Ack()
}
