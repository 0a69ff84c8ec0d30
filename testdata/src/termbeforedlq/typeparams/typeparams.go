// Package typeparams proves termbeforedlq on generic code: a handler
// generic over the handler-side message interface, a generic DLQ writer, a
// generic may-Term helper, and their instantiations.
package typeparams

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Msg is the handler-side message interface.
type Msg interface {
	Ack() error
	NakWithDelay(d time.Duration) error
	Term() error
	Data() []byte
}

// Parker parks any message on the DLQ subject.
type Parker[M Msg] struct {
	js jetstream.JetStream
}

// Park publishes m to the DLQ subject.
func (p *Parker[M]) Park(ctx context.Context, m M) error {
	_, err := p.js.Publish(ctx, "events.DLQ", m.Data())
	return err
}

// reject terminates any message.
func reject[M Msg](m M) error { return m.Term() }

func handle[M Msg](ctx context.Context, p *Parker[M], m M) error {
	m.Term() // want `Term before the DLQ write p\.Park`
	return p.Park(ctx, m)
}

func _(ctx context.Context, p *Parker[jetstream.Msg], m jetstream.Msg) error {
	reject(m) // want `call to reject may Term the message before the DLQ write p\.Park`
	return p.Park(ctx, m)
}

func _(ctx context.Context, p *Parker[jetstream.Msg], m jetstream.Msg) error {
	_ = p.Park(ctx, m)
	return reject[jetstream.Msg](m) // want `call to reject may Term the message after the DLQ write p\.Park whose error is not checked`
}

// Not reported: the right order, generic.
func settle[M Msg](ctx context.Context, p *Parker[M], m M) error {
	if err := p.Park(ctx, m); err != nil {
		return m.NakWithDelay(5 * time.Second)
	}
	return reject(m)
}

func _(ctx context.Context, p *Parker[jetstream.Msg], m jetstream.Msg) error {
	if err := handle(ctx, p, m); err != nil {
		return err
	}
	return settle(ctx, p, m)
}
