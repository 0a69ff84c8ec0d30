// Package pool is a worker pool over a JetStream consumer, in the shape
// real services have: the constructor stores the handler in a struct
// field, and the workers call it with the message's payload and metadata,
// not the message. Pool Acks when its handler returns true and retries
// later on false; ErrPool Acks on a nil error. Tap also keeps a bool
// function in a field, but acks every message whatever it says: it is a
// filter, not a handler.
package pool

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// HandleFunc handles one payload and says whether it is done.
type HandleFunc func(ctx context.Context, data []byte, meta *jetstream.MsgMetadata) bool

// Option configures a pool.
type Option func(*Pool)

// WithBackoff sets the redelivery delay.
func WithBackoff(d time.Duration) Option { return func(p *Pool) { p.backoff = d } }

// Pool runs n workers.
type Pool struct {
	cons    jetstream.Consumer
	n       int
	handle  HandleFunc
	backoff time.Duration
}

// New returns a pool of n workers calling h.
func New(cons jetstream.Consumer, n int, h HandleFunc, opts ...Option) *Pool { // want New:"acks when handler param 2 returns nil"
	p := &Pool{cons: cons, n: n, handle: h, backoff: 5 * time.Second}
	for _, o := range opts {
		o(p)
	}
	return p
}

func (p *Pool) process(ctx context.Context, msg jetstream.Msg) { // want process:"may Ack param 1; may NakWithDelay param 1; may Term param 1"
	meta, err := msg.Metadata()
	if err != nil {
		_ = msg.Term()
		return
	}
	if p.handle(ctx, msg.Data(), meta) {
		_ = msg.Ack()
		return
	}
	_ = msg.NakWithDelay(p.backoff)
}

// Run consumes until ctx is done.
func (p *Pool) Run(ctx context.Context) error {
	cc, err := p.cons.Consume(func(msg jetstream.Msg) { p.process(ctx, msg) })
	if err != nil {
		return err
	}
	<-ctx.Done()
	cc.Stop()
	return nil
}

// ErrHandleFunc handles one payload.
type ErrHandleFunc func(ctx context.Context, data []byte) error

// ErrPool Acks when its handler returns nil.
type ErrPool struct {
	cons   jetstream.Consumer
	handle ErrHandleFunc
}

// NewErr returns a pool calling h.
func NewErr(cons jetstream.Consumer, h ErrHandleFunc) *ErrPool { // want NewErr:"acks when handler param 1 returns nil"
	return &ErrPool{cons: cons, handle: h}
}

func (p *ErrPool) process(ctx context.Context, msg jetstream.Msg) { // want process:"may Ack param 1; may NakWithDelay param 1"
	if err := p.handle(ctx, msg.Data()); err != nil {
		_ = msg.NakWithDelay(time.Second)
		return
	}
	_ = msg.Ack()
}

// Run consumes until ctx is done.
func (p *ErrPool) Run(ctx context.Context) error {
	cc, err := p.cons.Consume(func(msg jetstream.Msg) { p.process(ctx, msg) })
	if err != nil {
		return err
	}
	<-ctx.Done()
	cc.Stop()
	return nil
}

// Tap logs what its filter says and acks every message.
type Tap struct {
	keep func(data []byte) bool
}

// NewTap returns a tap with filter keep.
func NewTap(keep func(data []byte) bool) *Tap { return &Tap{keep: keep} }

func (t *Tap) process(msg jetstream.Msg) { // want process:"may Ack param 0"
	if t.keep(msg.Data()) {
		log.Printf("kept %s", msg.Subject())
	}
	_ = msg.Ack()
}

// Drain handles a fetched batch, acking the payloads h accepts and
// retrying the others later.
func Drain(ctx context.Context, batch jetstream.MessageBatch, h func(context.Context, []byte) bool) { // want Drain:"acks when handler param 2 returns nil"
	for msg := range batch.Messages() {
		if !h(ctx, msg.Data()) {
			_ = msg.NakWithDelay(time.Second)
			continue
		}
		_ = msg.Ack()
	}
}
