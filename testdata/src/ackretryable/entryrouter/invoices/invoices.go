// Package invoices registers its handlers with the entry router, by
// AddHandler, by the generic Register and through a Bus interface that
// *router.Router implements: a `return nil` in a retryable producer's
// error branch, in the handler or in the callee whose result it returns,
// is the Worker's Ack. Functions registered as auditors or probes, and the
// drop hook, are not handlers: their nil acknowledges nothing. A handler
// wrapped by a middleware factory's middleware (Deadline(d)(h)) is one; by
// Refuse's, which never passes its nil on, it is not.
package invoices

import (
	"context"
	"errors"
	"log"
	"time"

	"ackretryable/entryrouter/router"
	"retrykit"
)

// Issued is the typed event of Register.
type Issued struct{ ID string }

// Service holds the invoice handlers.
type Service struct{}

// charge is a retryable producer.
func (s *Service) charge(ctx context.Context, id string) error {
	if id == "" {
		return retrykit.RetryAfter(errors.New("gateway busy"), 3*time.Second)
	}
	return nil
}

// Routes registers the handlers.
func (s *Service) Routes(r *router.Router) {
	r.AddHandler("invoice.paid", "invoices.paid", s.onPaid)
	router.Register(r, "invoice.issued", "invoices.issued", s.onIssued)
	r.AddAudit("invoice.audit", s.auditPaid)
	r.AddProbe("invoice.probe", s.probePaid)
	r.OnDrop(s.dropped)
	r.AddHandler("invoice.late", "invoices.late", router.Deadline(time.Second)(s.onLate))
	r.AddHandler("invoice.dry", "invoices.dry", router.Refuse("dry run")(s.onDry))
}

func (s *Service) onLate(ctx context.Context, msg *router.Message) error {
	if err := s.charge(ctx, msg.Subject); err != nil {
		return nil // want `retryable error err from charge is dropped: returning nil makes r.AddHandler Ack the message`
	}
	return nil
}

// Not reported: Refuse's middleware never returns the handler's nil.
func (s *Service) onDry(ctx context.Context, msg *router.Message) error {
	if err := s.charge(ctx, msg.Subject); err != nil {
		return nil
	}
	return nil
}

func (s *Service) onPaid(ctx context.Context, msg *router.Message) error {
	if err := s.charge(ctx, msg.Subject); err != nil {
		log.Printf("charge: %v", err)
		return nil // want `retryable error err from charge is dropped: returning nil makes r.AddHandler Ack the message`
	}
	return nil
}

func (s *Service) onIssued(ctx context.Context, ev Issued) error {
	return s.settleIssued(ctx, ev)
}

func (s *Service) settleIssued(ctx context.Context, ev Issued) error {
	if err := s.charge(ctx, ev.ID); err != nil {
		return nil // want `retryable error err from charge is dropped: returning nil makes router.Register Ack the message`
	}
	return nil
}

// Not reported: an auditor's result is only logged.
func (s *Service) auditPaid(ctx context.Context, msg *router.Message) error {
	if err := s.charge(ctx, msg.Subject); err != nil {
		return nil
	}
	return nil
}

// Not reported: the Worker Naks a probe's message whatever it returns.
func (s *Service) probePaid(ctx context.Context, msg *router.Message) error {
	if err := s.charge(ctx, msg.Subject); err != nil {
		return nil
	}
	return nil
}

// Not reported: the drop hook's result is logged.
func (s *Service) dropped(ctx context.Context, name string) error {
	if err := s.charge(ctx, name); err != nil {
		return nil
	}
	return nil
}

// Bus is what Register needs of a router; *router.Router implements it.
type Bus interface {
	AddHandler(name, topic string, h router.HandlerFunc)
}

// Refunds registers its handler through Bus.
type Refunds struct{ s *Service }

// Register registers the refund handler.
func (f *Refunds) Register(b Bus) {
	b.AddHandler("invoice.refund", "invoices.refund", f.onRefund)
}

func (f *Refunds) onRefund(ctx context.Context, msg *router.Message) error {
	if err := f.s.charge(ctx, msg.Subject); err != nil {
		return nil // want `retryable error err from charge is dropped: returning nil makes b.AddHandler Ack the message`
	}
	return nil
}

// HandleVoid is registered by package app.
func (s *Service) HandleVoid(ctx context.Context, msg *router.Message) error { // want HandleVoid:"drops a retryable error if a caller acks on nil"
	if err := s.charge(ctx, msg.Subject); err != nil {
		return nil
	}
	return nil
}
