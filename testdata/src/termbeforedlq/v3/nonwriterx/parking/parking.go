// Package parking holds a shared "dead-letter" helper that writes nothing:
// reported here, at its Term, and known to other packages through its
// fact as no DLQ write.
package parking

import (
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"
)

// DeadLetter logs the message and terminates it: nothing keeps the payload.
func DeadLetter(msg jetstream.Msg, reason string) error {
	slog.Warn("dead letter", "subject", msg.Subject(), "reason", reason)
	return msg.TermWithReason(reason) // want `DeadLetter terminates the message without writing it anywhere`
}

// Publisher is the service's JetStream publisher.
type Publisher interface {
	Publish(subject string, data []byte) error
}

// Park writes the payload to the DLQ stream: a real writer.
func Park(p Publisher, msg jetstream.Msg) error {
	return p.Publish("orders.DLQ", msg.Data())
}
