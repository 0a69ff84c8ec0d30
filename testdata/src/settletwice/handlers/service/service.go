// Package service registers its handlers on the buses of package bus: a
// handler that Acks its message and then returns an error is reported at
// the return when the bus Naks or Terms on error (the bus's settlement is
// ignored); the same handler on a bus that only logs errors, returns of
// nil or of an error nil on that path, returns before the Ack and the
// Ack's own failure branch are quiet.
package service

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"settletwice/handlers/bus"
)

type ERP interface {
	Export(ctx context.Context, id string) error
}

type Store interface {
	Save(ctx context.Context, data []byte) error
}

// PriceError is a pricing failure of one order.
type PriceError struct {
	Order string
	Err   error
}

func (e *PriceError) Error() string { return "price " + e.Order + ": " + e.Err.Error() }
func (e *PriceError) Unwrap() error { return e.Err }

type Service struct {
	erp   ERP
	store Store
}

// Start registers the handlers.
func (s *Service) Start(ctx context.Context, orders, audits jetstream.Consumer, msg jetstream.Msg) {
	_, _ = bus.Subscribe(orders, s.onCompleted)
	_, _ = bus.Subscribe(orders, s.onShipped)
	_, _ = bus.Subscribe(orders, s.onArchived)
	_, _ = bus.Subscribe(orders, s.onCancelled)
	_, _ = bus.Subscribe(audits, func(ctx context.Context, msg jetstream.Msg) error {
		_ = msg.Ack()
		if len(msg.Data()) == 0 {
			return errors.New("empty audit record") // want `returning an error after Ack is ignored: bus.Subscribe's NakWithDelay of the failed work never happens; acknowledge after the work`
		}
		return nil
	})
	bus.Strict(ctx, msg, s.onRefunded)
	bus.Strict(ctx, msg, s.onPriced)
	bus.Fetch(ctx, []jetstream.Msg{msg}, s.onBilled)
	bus.Route(ctx, msg, s.onVoided)
	bus.Pull(ctx, msg, s.onDelivered)
	bus.Logged(ctx, msg, s.onLogged)
}

// onCompleted acks first: the export's failure goes back to a bus that
// would retry it, after the Ack.
func (s *Service) onCompleted(ctx context.Context, msg jetstream.Msg) error {
	if err := msg.Ack(); err != nil {
		return err // the Ack's own failure branch: the Ack failed
	}
	if err := s.erp.Export(ctx, string(msg.Data())); err != nil {
		return fmt.Errorf("export: %w", err) // want `returning an error after Ack is ignored: bus.Subscribe's NakWithDelay of the failed work never happens`
	}
	return nil
}

// onRefunded: the error variable, non-nil in its branch, to a bus that
// terminates it.
func (s *Service) onRefunded(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	if err := s.store.Save(ctx, msg.Data()); err != nil {
		return err // want `returning an error after Ack is ignored: bus.Strict's Term of the failed work never happens`
	}
	return nil
}

// onLogged: the same shape, but the bus only logs the error: quiet.
func (s *Service) onLogged(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	if err := s.store.Save(ctx, msg.Data()); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	return nil
}

// onShipped acks after the work: its error returns come before the Ack.
func (s *Service) onShipped(ctx context.Context, msg jetstream.Msg) error {
	if err := s.erp.Export(ctx, string(msg.Data())); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := msg.Ack(); err != nil {
		return fmt.Errorf("ack: %w", err)
	}
	return nil
}

// onArchived logs the failure after the Ack and returns an error that is
// nil on that path.
func (s *Service) onArchived(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	err := s.store.Save(ctx, msg.Data())
	if err != nil {
		log.Printf("archive: %v", err)
		return nil
	}
	return err
}

// onCancelled returns another call's error after the Ack: it may be nil,
// so it is not known to be an error.
func (s *Service) onCancelled(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	return s.store.Save(ctx, msg.Data())
}

// onPriced: a validation error before the Ack is quiet (the bus Terms a
// message that was not acknowledged); the error value made after the Ack
// is reported.
func (s *Service) onPriced(ctx context.Context, msg jetstream.Msg) error {
	if len(msg.Data()) == 0 {
		return &PriceError{Order: msg.Subject(), Err: errors.New("empty order")}
	}
	_ = msg.Ack()
	if err := s.erp.Export(ctx, msg.Subject()); err != nil {
		return &PriceError{Order: msg.Subject(), Err: err} // want `returning an error after Ack is ignored: bus.Strict's Term of the failed work never happens`
	}
	return nil
}

// onBilled, on a bus that Naks an error in the else branch.
func (s *Service) onBilled(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	if err := s.store.Save(ctx, msg.Data()); err != nil {
		return fmt.Errorf("bill: %w", err) // want `returning an error after Ack is ignored: bus.Fetch's Nak of the failed work never happens`
	}
	return nil
}

// onVoided, on a bus that Terms an error in a switch clause.
func (s *Service) onVoided(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	if err := s.erp.Export(ctx, msg.Subject()); err != nil {
		return err // want `returning an error after Ack is ignored: bus.Route's Term of the failed work never happens`
	}
	return nil
}

// onDelivered, on a bus that retries an error in the else branch of its
// nil test.
func (s *Service) onDelivered(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Ack()
	if err := s.erp.Export(ctx, msg.Subject()); err != nil {
		return errors.New("delivery not exported") // want `returning an error after Ack is ignored: bus.Pull's NakWithDelay of the failed work never happens`
	}
	return nil
}
