// Package mwrouter is a subject router in the shape real services have:
// Handle stores a handler in a map under a lock, the generic Register
// hands Handle a decoding adapter around a typed handler, and Dispatch
// gets the handler through the lookup method, which wraps it in the
// router's middleware, Acks when it returns nil and Naks or Terms
// otherwise. Observe keeps observers in a map too, looked up through a
// method as well, but their errors are only logged: nothing they return
// is an Ack.
package mwrouter

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// HandlerFunc handles one message.
type HandlerFunc func(ctx context.Context, msg jetstream.Msg) error

// Middleware wraps a handler.
type Middleware func(HandlerFunc) HandlerFunc

// PoisonError marks a payload that cannot be decoded.
type PoisonError struct{ Err error }

func (e *PoisonError) Error() string { return "poison: " + e.Err.Error() }
func (e *PoisonError) Unwrap() error { return e.Err }

// Router dispatches messages by subject.
type Router struct {
	mu         sync.RWMutex
	routes     map[string]HandlerFunc
	observers  map[string]HandlerFunc
	middleware []Middleware
}

// New returns a router with the given middleware.
func New(mw ...Middleware) *Router {
	return &Router{routes: map[string]HandlerFunc{}, observers: map[string]HandlerFunc{}, middleware: mw}
}

// Handle routes subject to h.
func (r *Router) Handle(subject string, h HandlerFunc) { // want Handle:"acks when handler param 1 returns nil"
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes[subject] = h
}

// Register routes subject to a typed handler: the payload is decoded into
// T first, and a payload that does not decode is poison.
func Register[T any](r *Router, subject string, h func(context.Context, T) error) { // want Register:"acks when handler param 2 returns nil"
	r.Handle(subject, func(ctx context.Context, msg jetstream.Msg) error {
		var v T
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return &PoisonError{Err: err}
		}
		return h(ctx, v)
	})
}

// Observe adds an observer of subject; observers' errors are logged.
func Observe[T any](r *Router, subject string, h func(context.Context, T) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.observers[subject] = func(ctx context.Context, msg jetstream.Msg) error {
		var v T
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return err
		}
		return h(ctx, v)
	}
}

// lookup returns the handler of subject wrapped in the middleware, the
// first middleware outermost.
func (r *Router) lookup(subject string) (HandlerFunc, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, ok := r.routes[subject]
	if !ok {
		return nil, false
	}
	for i := len(r.middleware) - 1; i >= 0; i-- {
		h = r.middleware[i](h)
	}
	return h, true
}

func (r *Router) observer(subject string) HandlerFunc {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.observers[subject]
}

// Dispatch routes one message.
func (r *Router) Dispatch(ctx context.Context, msg jetstream.Msg) { // want Dispatch:"may Ack param 1; may NakWithDelay param 1; may Term param 1"
	if o := r.observer(msg.Subject()); o != nil {
		if err := o(ctx, msg); err != nil {
			log.Printf("observer %s: %v", msg.Subject(), err)
		}
	}
	h, ok := r.lookup(msg.Subject())
	if !ok {
		_ = msg.Term()
		return
	}
	err := h(ctx, msg)
	if err == nil {
		_ = msg.Ack()
		return
	}
	var poison *PoisonError
	if errors.As(err, &poison) {
		_ = msg.Term()
		return
	}
	_ = msg.NakWithDelay(5 * time.Second)
}

// Mux matches subjects against wildcard patterns: route ranges over the
// routes and wraps the match in the middleware chain.
type Mux struct {
	routes map[string]HandlerFunc
	mw     []Middleware
}

// HandleFunc routes the subjects that match pattern to h.
func (m *Mux) HandleFunc(pattern string, h HandlerFunc) { m.routes[pattern] = h } // want HandleFunc:"acks when handler param 1 returns nil"

func (m *Mux) route(subject string) HandlerFunc {
	for pattern, h := range m.routes {
		if matches(pattern, subject) {
			return chain(h, m.mw)
		}
	}
	return nil
}

func chain(h HandlerFunc, mw []Middleware) HandlerFunc {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

func matches(pattern, subject string) bool { return pattern == ">" || pattern == subject }

// Serve routes one message.
func (m *Mux) Serve(ctx context.Context, msg jetstream.Msg) { // want Serve:"may Ack param 1; may NakWithDelay param 1"
	h := m.route(msg.Subject())
	if h == nil {
		return
	}
	if err := h(ctx, msg); err != nil {
		_ = msg.NakWithDelay(time.Second)
		return
	}
	_ = msg.Ack()
}
