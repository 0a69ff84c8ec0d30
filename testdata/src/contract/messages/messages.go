// Package messages proves which types the contract model treats as
// messages: the NATS client's, and any type with Ack() error together with
// Nak() error or Term() error.
package messages

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Delivery is the handler-side interface people write for testability.
type Delivery interface {
	Data() []byte
	Ack() error
	Nak() error
}

// FakeMsg is a test double with Ack and Term.
type FakeMsg struct{ acked, termed bool }

func (m *FakeMsg) Ack() error  { m.acked = true; return nil }
func (m *FakeMsg) Term() error { m.termed = true; return nil }

// Ticket has Ack but neither Nak nor Term: not a message.
type Ticket struct{}

func (Ticket) Ack() error { return nil }

// Alarm has Ack and Nak with other signatures: not a message.
type Alarm struct{}

func (Alarm) Ack()              {}
func (Alarm) Nak(code int) bool { return false }

func _(m *nats.Msg) {
	_ = m.Ack()                              // want `ack call Ack`
	_ = m.Nak()                              // want `ack call Nak`
	_ = m.NakWithDelay(time.Second)          // want `ack call NakWithDelay`
	_ = m.Term(nats.Context(context.TODO())) // want `ack call Term`
	_ = m.InProgress()                       // want `ack call InProgress`
	_ = m.AckSync()                          // want `ack call AckSync`
}

func _(m jetstream.Msg) {
	_ = m.DoubleAck(context.TODO()) // want `ack call DoubleAck`
	_ = m.TermWithReason("poison")  // want `ack call TermWithReason`
}

func _(d Delivery, f *FakeMsg, t Ticket, a Alarm) {
	_ = d.Nak()  // want `ack call Nak`
	_ = f.Term() // want `ack call Term`
	_ = t.Ack()
	a.Ack()
}

func _(m jetstream.Msg) {
	term := m.Term
	_ = term() // want `ack call Term`
	nak := m.Nak
	if len(m.Data()) > 0 {
		nak = func() error { return nil }
	}
	_ = nak()
}
