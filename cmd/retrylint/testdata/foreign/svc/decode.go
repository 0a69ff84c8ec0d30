package svc

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

type Order struct{ ID string }

func (s *Service) HandleDecoded(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return nil
	}
	return nil
}

func (s *Service) HandleDecodedFine(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return err
	}
	return nil
}
