// Package routebus is a router that keeps its handlers in maps keyed by
// subject: Handle stores a message handler, the generic Register stores a
// decoding adapter around a typed handler, and dispatch looks the handler
// up, Acks on nil and Naks on error. Hooks keeps functions in a map too,
// but acknowledges nothing.
package routebus

import (
	"context"
	"encoding/json"
	"log"
	"time"

	"github.com/nats-io/nats.go"
)

// HandlerFunc handles one message.
type HandlerFunc func(ctx context.Context, m *nats.Msg) error

// Router dispatches messages by subject.
type Router struct {
	routes map[string]HandlerFunc
	hooks  map[string]func(context.Context, string) error
}

// New returns an empty router.
func New() *Router {
	return &Router{routes: map[string]HandlerFunc{}, hooks: map[string]func(context.Context, string) error{}}
}

// Handle routes subject to h.
func (r *Router) Handle(subject string, h HandlerFunc) { r.routes[subject] = h } // want Handle:"acks when handler param 1 returns nil"

// Register routes subject to a typed handler: the payload is decoded into
// T first.
func Register[T any](r *Router, subject string, h func(context.Context, T) error) { // want Register:"acks when handler param 2 returns nil"
	r.routes[subject] = func(ctx context.Context, m *nats.Msg) error {
		var v T
		if err := json.Unmarshal(m.Data, &v); err != nil {
			return err
		}
		return h(ctx, v)
	}
}

// OnStart registers a hook; hooks are called at start and their errors
// logged.
func (r *Router) OnStart(name string, f func(context.Context, string) error) { r.hooks[name] = f }

// Start runs the hooks.
func (r *Router) Start(ctx context.Context) {
	for name := range r.hooks {
		if err := r.hooks[name](ctx, name); err != nil {
			log.Printf("hook %s: %v", name, err)
		}
	}
}

// Dispatch routes one message.
func (r *Router) Dispatch(ctx context.Context, m *nats.Msg) { // want Dispatch:"may Ack param 1; may NakWithDelay param 1; may Term param 1"
	h, ok := r.routes[m.Subject]
	if !ok {
		_ = m.Term()
		return
	}
	err := h(ctx, m)
	if err == nil {
		_ = m.Ack()
		return
	}
	_ = m.NakWithDelay(5 * time.Second)
}
