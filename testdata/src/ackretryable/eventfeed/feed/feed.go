// Package feed is an event bus whose handlers take a decoded event, not a
// message: Route keeps them in a map that deliver looks up, and deliver
// Acks when the handler returns nil; Typed decodes the event's body into
// a type parameter first, and WithMeta adapts a handler of the event's
// metadata and body. Tap calls its hooks and Naks whatever they
// return: nothing there Acks on nil. Raw's handlers take the message. Hub
// settles through a helper that Acks when the handler's error is nil;
// Mirror's helper Naks then, Relay passes its helper another error, and
// Echo's helper tests another.
package feed

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Event is the decoded envelope: not a message type.
type Event struct {
	Kind, ID string
	Body     []byte
}

// Func applies one event.
type Func func(ctx context.Context, ev Event) error

type Feed struct {
	routes map[string]Func
}

func New() *Feed { return &Feed{routes: make(map[string]Func)} }

// Route routes kind to h.
func (f *Feed) Route(kind string, h Func) { f.routes[kind] = h }

// Typed routes kind to h, with the event's body decoded into T.
func Typed[T any](f *Feed, kind string, h func(ctx context.Context, ev Event, v T) error) {
	f.Route(kind, func(ctx context.Context, ev Event) error {
		var v T
		if err := json.Unmarshal(ev.Body, &v); err != nil {
			return err
		}
		return h(ctx, ev, v)
	})
}

// Meta is what an event says of itself.
type Meta struct{ Kind, ID string }

// WithMeta adapts a handler of an event's metadata and decoded body.
func WithMeta[T any](h func(ctx context.Context, meta Meta, v T) error) Func {
	return func(ctx context.Context, ev Event) error {
		var v T
		if err := json.Unmarshal(ev.Body, &v); err != nil {
			return err
		}
		return h(ctx, Meta{Kind: ev.Kind, ID: ev.ID}, v)
	}
}

func (f *Feed) Start(c jetstream.Consumer) error {
	_, err := c.Consume(f.deliver)
	return err
}

func (f *Feed) deliver(msg jetstream.Msg) {
	var ev Event
	if err := json.Unmarshal(msg.Data(), &ev); err != nil {
		_ = msg.Term()
		return
	}
	h, ok := f.routes[ev.Kind]
	if !ok {
		_ = msg.Ack()
		return
	}
	if err := h(context.Background(), ev); err != nil {
		_ = msg.NakWithDelay(time.Second)
		return
	}
	_ = msg.Ack()
}

// MsgFunc handles a raw message.
type MsgFunc func(ctx context.Context, msg jetstream.Msg) error

// Raw consumes c with h, and Acks when h returns nil.
func Raw(c jetstream.Consumer, h MsgFunc) error {
	_, err := c.Consume(func(msg jetstream.Msg) {
		if err := h(context.Background(), msg); err != nil {
			_ = msg.Nak()
			return
		}
		_ = msg.Ack()
	})
	return err
}

// Hub settles through a helper: deliver passes the handler's error to
// settle, which Acks when it is nil.
type Hub struct {
	routes map[string]Func
}

func (h *Hub) Handle(kind string, fn Func) { h.routes[kind] = fn }

func (h *Hub) deliver(msg jetstream.Msg) {
	ev := Event{Kind: msg.Subject(), Body: msg.Data()}
	fn, ok := h.routes[ev.Kind]
	if !ok {
		_ = msg.Term()
		return
	}
	err := fn(context.Background(), ev)
	h.settle(msg, err)
}

func (h *Hub) settle(msg jetstream.Msg, err error) {
	if err == nil {
		_ = msg.Ack()
		return
	}
	_ = msg.NakWithDelay(time.Second)
}

// Mirror's helper Naks when the error it is passed is nil: nothing Acks
// on nil.
type Mirror struct {
	hooks map[string]Func
}

func (m *Mirror) Handle(kind string, fn Func) { m.hooks[kind] = fn }

func (m *Mirror) deliver(msg jetstream.Msg) {
	ev := Event{Kind: msg.Subject(), Body: msg.Data()}
	if fn, ok := m.hooks[ev.Kind]; ok {
		err := fn(context.Background(), ev)
		m.settle(msg, err)
	}
}

func (m *Mirror) settle(msg jetstream.Msg, err error) {
	if err == nil {
		_ = msg.Nak()
		return
	}
	_ = msg.Term()
}

// Relay passes its helper another error than its hooks': the context's.
type Relay struct {
	hooks map[string]Func
}

func (r *Relay) Handle(kind string, fn Func) { r.hooks[kind] = fn }

func (r *Relay) deliver(ctx context.Context, msg jetstream.Msg) {
	ev := Event{Kind: msg.Subject(), Body: msg.Data()}
	if fn, ok := r.hooks[ev.Kind]; ok {
		_ = fn(ctx, ev)
		cerr := ctx.Err()
		(&Hub{}).settle(msg, cerr)
	}
}

// Echo's helper Acks when its other error parameter is nil, not the
// handler's.
type Echo struct {
	hooks map[string]Func
}

func (e *Echo) Handle(kind string, fn Func) { e.hooks[kind] = fn }

func (e *Echo) deliver(ctx context.Context, msg jetstream.Msg) {
	ev := Event{Kind: msg.Subject(), Body: msg.Data()}
	if fn, ok := e.hooks[ev.Kind]; ok {
		err := fn(ctx, ev)
		e.settle(msg, err, ctx.Err())
	}
}

func (e *Echo) settle(msg jetstream.Msg, err, cerr error) {
	if cerr == nil {
		_ = msg.Ack()
		return
	}
	_ = msg.Nak()
}

// Tap calls its hooks for every event and Naks the message whatever they
// return.
type Tap struct {
	hooks map[string]Func
}

func (t *Tap) Hook(kind string, h Func) { t.hooks[kind] = h }

func (t *Tap) deliver(msg jetstream.Msg) {
	ev := Event{Kind: msg.Subject(), Body: msg.Data()}
	if h, ok := t.hooks[ev.Kind]; ok {
		_ = h(context.Background(), ev)
	}
	_ = msg.Nak()
}
