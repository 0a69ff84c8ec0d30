// Package redeliverytest: a test that drives a handler over core NATS
// says nothing of how production registers it. Production subscribes
// onTick on a durable JetStream consumer, so its Ack of a retryable
// failure is judged; the test function's core NATS subscription (out of
// scope, as every test function is) does not make its messages ones that
// nothing redelivers.
package redeliverytest

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"

	"retrykit"
)

type Ticks struct {
	js nats.JetStreamContext
}

func (t *Ticks) refresh(ctx context.Context, data []byte) error {
	if ctx.Err() != nil {
		return retrykit.RetryAfter(ctx.Err(), 5*time.Second)
	}
	return nil
}

func (t *Ticks) onTick(m *nats.Msg) {
	if err := t.refresh(context.Background(), m.Data); err != nil {
		m.Ack() // want `Ack in the error branch of retryable error err from refresh`
		return
	}
	m.Ack()
}

// Start subscribes onTick on a durable consumer.
func (t *Ticks) Start() error {
	_, err := t.js.Subscribe("ticks", t.onTick, nats.Durable("ticks"))
	return err
}
