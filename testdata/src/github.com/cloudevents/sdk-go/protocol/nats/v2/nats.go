// Package nats is a stub of github.com/cloudevents/sdk-go/protocol/nats/v2
// with the signatures the tests use.
package nats

import (
	"github.com/cloudevents/sdk-go/v2/binding"
	"github.com/nats-io/nats.go"
)

type Message struct{ Msg *nats.Msg }

func (m *Message) Finish(error) error { return nil }

var _ binding.Message = (*Message)(nil)

func NewMessage(msg *nats.Msg) *Message { return &Message{Msg: msg} }
