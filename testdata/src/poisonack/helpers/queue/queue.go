// Package queue holds the redelivery helpers a worker calls through
// helpers of its own: Redeliver Naks bare, Later Naks with a delay.
package queue

import (
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Redeliver asks for the message again at once.
func Redeliver(m jetstream.Msg) {
	_ = m.Nak()
}

// Later asks for the message again after a pause.
func Later(m jetstream.Msg) {
	_ = m.NakWithDelay(5 * time.Second)
}
