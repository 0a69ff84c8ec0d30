package svc

// Nil named results (CONTRACT.md version 3): a naked return of a named
// error result that nothing assigned, or `return err` where err is nil on
// that path, is a `return nil`, and the bus Acks it. A variable that may
// hold an error there is not.

import (
	"context"
	"encoding/json"
	"log"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/handlers/bus"
)

type reservation struct{ SKU string }

// A naked return of a result nothing assigned: nil.
func (s *Service) handleNaked(ctx context.Context, msg jetstream.Msg) (err error) {
	if rerr := s.reserve(ctx, msg.Data()); rerr != nil {
		log.Printf("reserve: %v", rerr)
		return // want `retryable error rerr from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return
}

// The wrong variable returned: err was checked nil above.
func (s *Service) handleWrongErr(ctx context.Context, msg jetstream.Msg) error {
	var r reservation
	err := json.Unmarshal(msg.Data(), &r)
	if err != nil {
		return err
	}
	if rerr := s.reserve(ctx, []byte(r.SKU)); rerr != nil {
		log.Printf("reserve %s: %v", r.SKU, rerr)
		return err // want `retryable error rerr from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

// A local declared without a value and never assigned.
func (s *Service) handleZeroVar(ctx context.Context, msg jetstream.Msg) error {
	var failure error
	if err := s.reserve(ctx, msg.Data()); err != nil {
		log.Printf("reserve: %v", err)
		return failure // want `retryable error err from reserve is dropped: returning nil makes bus.Subscribe Ack the message`
	}
	return nil
}

// Not reported: the named result holds the producer's error at the
// naked return.
func (s *Service) handleNakedErr(ctx context.Context, msg jetstream.Msg) (err error) {
	err = s.reserve(ctx, msg.Data())
	if err != nil {
		log.Printf("reserve: %v", err)
		return
	}
	return
}

// Not reported: the returned variable holds another call's error, which
// may not be nil.
func (s *Service) handleOtherErr(ctx context.Context, msg jetstream.Msg) error {
	var r reservation
	derr := json.Unmarshal(msg.Data(), &r)
	if rerr := s.reserve(ctx, []byte(r.SKU)); rerr != nil {
		log.Printf("reserve %s: %v", r.SKU, rerr)
		return derr
	}
	return derr
}

// Not reported: the variable was assigned an error on the way.
func (s *Service) handleAssignedVar(ctx context.Context, msg jetstream.Msg) error {
	var failure error
	if err := s.reserve(ctx, msg.Data()); err != nil {
		failure = err
		return failure
	}
	return failure
}

func (s *Service) RegisterNamed(c jetstream.Consumer) {
	_, _ = bus.Subscribe(c, s.handleNaked)
	_, _ = bus.Subscribe(c, s.handleWrongErr)
	_, _ = bus.Subscribe(c, s.handleZeroVar)
	_, _ = bus.Subscribe(c, s.handleNakedErr)
	_, _ = bus.Subscribe(c, s.handleOtherErr)
	_, _ = bus.Subscribe(c, s.handleAssignedVar)
}
