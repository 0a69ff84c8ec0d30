// Package helpers calls the bare-Nak helpers of package settle on
// transient paths: a helper that bare-Naks always, or any error it is given
// without looking at it, drops the retry delay at the call.
package helpers

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/helpers/settle"
	"retrykit"
)

type Service struct{}

func (s *Service) reserve(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		return retrykit.RetryAfter(errors.New("busy"), time.Second)
	}
	return nil
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		log.Printf("retry in %s", d)
		settle.Retry(msg) // want `call to settle.Retry bare-Naks the message on the transient path of transient error err`
		return
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		settle.RetryErr(msg, err) // want `call to settle.RetryErr bare-Naks the message on the transient path of transient error err`
	}
}

// Not reported: RetryClassified classifies, and bare-Naks only a zero
// delay.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		_ = settle.RetryClassified(msg, err)
	}
}

// Not reported: a bare retry off any transient path.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	settle.Retry(msg)
}
