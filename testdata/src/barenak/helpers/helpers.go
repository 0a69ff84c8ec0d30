// Package helpers calls the bare-Nak helpers of package settle on
// transient paths: a helper that bare-Naks always, or any error it is given
// without looking at it, drops the retry delay at the call.
package helpers

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go"
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

// nakNow is a local helper that bare-Naks what it is given.
func nakNow(msg jetstream.Msg) { _ = msg.Nak() }

// retryAny bare-Naks a non-nil error it does not look at; its error comes
// first.
func retryAny(err error, msg jetstream.Msg) {
	if err != nil {
		_ = msg.Nak()
	}
}

// retryLegacy bare-Naks a legacy message.
func retryLegacy(m *nats.Msg) { _ = m.Nak() }

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	if _, ok := retrykit.RetryDelay(err); ok {
		nakNow(msg) // want `call to nakNow bare-Naks the message on the transient path of transient error err`
		return
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		retryAny(err, msg) // want `call to retryAny bare-Naks the message`
	}
}

func (s *Service) _(ctx context.Context, m *nats.Msg) {
	err := s.reserve(ctx, m.Data)
	switch err.(type) {
	case *retrykit.TransientError:
		retryLegacy(m) // want `call to retryLegacy bare-Naks the message`
	}
}

func (s *Service) consume(c jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		err := s.reserve(context.Background(), msg.Data())
		var rd retrykit.Retryable
		if errors.As(err, &rd) {
			settle.Retry(msg) // want `call to settle.Retry bare-Naks the message`
			return
		}
		_ = msg.Ack()
	})
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	if retrykit.IsRetryable(err) {
		settle.Retry(msg) // want `call to settle.Retry bare-Naks the message`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	if rd, ok := errors.AsType[retrykit.Retryable](err); ok {
		log.Printf("retry in %s", rd.RetryDelay())
		nakNow(msg) // want `call to nakNow bare-Naks the message`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		log.Print(err)
		settle.RetryErr(msg, err) // want `call to settle.RetryErr bare-Naks the message`
		return
	}
	_ = msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		nakNow(msg) // want `call to nakNow bare-Naks the message`
	}
}

func (s *Service) _(ctx context.Context, m *nats.Msg) {
	if err := s.reserve(ctx, m.Data); err != nil {
		retryLegacy(m) // want `call to retryLegacy bare-Naks the message`
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) error {
	err := s.reserve(ctx, msg.Data())
	var te *retrykit.TransientError
	if errors.As(err, &te) {
		retryAny(err, msg) // want `call to retryAny bare-Naks the message`
		return nil
	}
	return err
}

// Not reported: the delay is known to be zero.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		if d <= 0 {
			nakNow(msg)
			return
		}
		_ = msg.NakWithDelay(d)
	}
}

// Not reported: the classification failed.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	if _, ok := retrykit.RetryDelay(err); !ok {
		nakNow(msg)
	}
}

// Not reported: RetryErr is given a fresh error, not the transient one.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		settle.RetryErr(msg, errors.New("other"))
	}
}

// Not reported: retryAny is given nil: it does not Nak then.
func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		retryAny(nil, msg)
	}
}

// Not reported: an error of unknown origin, never classified.
type Store interface{ Save([]byte) error }

func _(st Store, msg jetstream.Msg) {
	if err := st.Save(msg.Data()); err != nil {
		nakNow(msg)
	}
}

// Not reported: the helper is given the delay.
func nakAfter(msg jetstream.Msg, d time.Duration) { _ = msg.NakWithDelay(d) }

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	if d, ok := retrykit.RetryDelay(err); ok {
		nakAfter(msg, d)
	}
}

// Not reported: errors.Is identifies another error.
var ErrGone = errors.New("gone")

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		if errors.Is(err, ErrGone) {
			nakNow(msg)
		}
	}
}

// Not reported: the helper that Naks with the carrier's delay.
func nakWith(msg jetstream.Msg, rd retrykit.Retryable) { _ = msg.NakWithDelay(rd.RetryDelay()) }

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	err := s.reserve(ctx, msg.Data())
	var rd retrykit.Retryable
	if errors.As(err, &rd) {
		nakWith(msg, rd)
	}
}

// Not reported: a helper that bare-Naks only a nil error, given the
// transient one.
func nakIfNil(msg jetstream.Msg, err error) {
	if err == nil {
		_ = msg.Nak()
	}
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		nakIfNil(msg, err)
	}
}

// Not reported: a helper whose bare Nak is under a switch on an action.
func settleBy(msg jetstream.Msg, retryNow bool) {
	if retryNow {
		_ = msg.Nak()
		return
	}
	_ = msg.Ack()
}

func (s *Service) _(ctx context.Context, msg jetstream.Msg) {
	if err := s.reserve(ctx, msg.Data()); err != nil {
		settleBy(msg, false)
	}
}
