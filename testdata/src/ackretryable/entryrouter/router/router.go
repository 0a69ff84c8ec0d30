// Package router is an in-house router in Watermill's shape: AddHandler
// keeps each handler in a map of pointers to entry structs, the generic
// Register adds a decoding adapter, dispatch looks the entry up, takes its
// fn field, wraps it in the middleware and returns its result, and the
// Worker, which calls dispatch directly, Acks the message when dispatch
// returns nil. Handlers see a Message wrapper built from the JetStream
// message.
//
// The look-alikes: audits, a map of entries too, whose fn results are only
// logged; probes, whose results the Worker Naks on nil (a dry run); and
// the Router's onDrop hook, a func-typed field that is called and logged.
// Deadline is a middleware factory, Refuse one whose middleware never
// passes the handler's nil on.
package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Message is what handlers see.
type Message struct {
	Subject string
	Body    []byte
	raw     jetstream.Msg
}

func wrap(raw jetstream.Msg) *Message {
	return &Message{Subject: raw.Subject(), Body: raw.Data(), raw: raw}
}

// Bytes returns the body.
func (m *Message) Bytes() []byte { return m.Body }

// Part returns the body's i-th line.
func (m *Message) Part(i int) []byte { return m.Body }

// String names the message for logs.
func (m *Message) String() string { return m.Subject }

// Ack acknowledges the underlying message.
func (m *Message) Ack() error { return m.raw.Ack() }

// Nak asks for a redelivery.
func (m *Message) Nak() error { return m.raw.Nak() }

// Term stops redelivery.
func (m *Message) Term() error { return m.raw.Term() }

// HandlerFunc handles one message.
type HandlerFunc func(ctx context.Context, msg *Message) error

// Middleware wraps a handler.
type Middleware func(HandlerFunc) HandlerFunc

type entry struct {
	topic string
	fn    HandlerFunc
}

// Router keeps the handlers by name.
type Router struct {
	entries map[string]*entry
	audits  map[string]*entry
	probes  map[string]entry
	chain   []Middleware
	onDrop  func(ctx context.Context, name string) error
}

// New returns an empty Router.
func New() *Router {
	return &Router{entries: map[string]*entry{}, audits: map[string]*entry{}, probes: map[string]entry{}}
}

// Deadline bounds a handler's run: a middleware factory whose middleware
// passes the handler's nil on (err := h(ctx, msg); ...; return err).
func Deadline(d time.Duration) Middleware { // want Deadline:"returns middleware"
	return func(h HandlerFunc) HandlerFunc {
		return func(ctx context.Context, msg *Message) error {
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			err := h(ctx, msg)
			if errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("router: over %s: %w", d, err)
			}
			return err
		}
	}
}

// Refuse makes a dry run of a handler: whatever it returns, the message
// is refused, so its nil is never an Ack.
func Refuse(reason string) Middleware {
	return func(h HandlerFunc) HandlerFunc {
		return func(ctx context.Context, msg *Message) error {
			err := h(ctx, msg)
			log.Printf("dry run: %v", err)
			return errors.New(reason)
		}
	}
}

// Use appends middleware.
func (r *Router) Use(mw ...Middleware) { r.chain = append(r.chain, mw...) }

// AddHandler registers h under name.
func (r *Router) AddHandler(name, topic string, h HandlerFunc) { // want AddHandler:"acks when handler param 2 returns nil"
	r.entries[name] = &entry{topic: topic, fn: h}
}

// Register adds a typed handler: the body is decoded into T first.
func Register[T any](r *Router, name, topic string, h func(context.Context, T) error) { // want Register:"acks when handler param 3 returns nil"
	r.AddHandler(name, topic, func(ctx context.Context, msg *Message) error {
		var v T
		if err := json.Unmarshal(msg.Body, &v); err != nil {
			return err
		}
		return h(ctx, v)
	})
}

// AddAudit registers an auditor: its result is logged, nothing more.
func (r *Router) AddAudit(name string, h HandlerFunc) { r.audits[name] = &entry{fn: h} }

// AddProbe registers a dry-run handler: the Worker Naks whatever it
// returns.
func (r *Router) AddProbe(name string, h HandlerFunc) { r.probes[name] = entry{fn: h} }

// OnDrop sets the hook called when a message has no handler.
func (r *Router) OnDrop(f func(ctx context.Context, name string) error) { r.onDrop = f }

// dispatch runs the named handler through the middleware.
func (r *Router) dispatch(ctx context.Context, name string, msg *Message) error {
	e, ok := r.entries[name]
	if !ok {
		if err := r.onDrop(ctx, name); err != nil {
			log.Printf("drop hook: %v", err)
		}
		return nil
	}
	h := e.fn
	for i := len(r.chain) - 1; i >= 0; i-- {
		h = r.chain[i](h)
	}
	return h(ctx, msg)
}

func (r *Router) audit(ctx context.Context, name string, msg *Message) {
	if e, ok := r.audits[name]; ok {
		if err := e.fn(ctx, msg); err != nil {
			log.Printf("audit %s: %v", name, err)
		}
	}
}

func (r *Router) probe(ctx context.Context, name string, msg *Message) error {
	p := r.probes[name]
	return p.fn(ctx, msg)
}

// Worker drives a Router.
type Worker struct{ router *Router }

// process settles one delivery from what the router's handler returned.
func (w *Worker) process(ctx context.Context, name string, raw jetstream.Msg) { // want process:"may Ack param 2; may NakWithDelay param 2; may Term param 2"
	msg := wrap(raw)
	w.router.audit(ctx, name, msg)
	var err error
	err = w.router.dispatch(ctx, name, msg)
	if err == nil {
		_ = raw.Ack()
		return
	}
	if errors.Is(err, context.DeadlineExceeded) {
		_ = raw.NakWithDelay(time.Second)
		return
	}
	_ = raw.Term()
}

// dryRun runs a probe and hands the message back whatever it returned.
func (w *Worker) dryRun(ctx context.Context, name string, raw jetstream.Msg) { // want dryRun:"may Nak param 2"
	if err := w.router.probe(ctx, name, wrap(raw)); err == nil {
		_ = raw.Nak()
		return
	}
	_ = raw.Nak()
}
