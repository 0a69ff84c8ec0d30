// Package queue is a job registry in a job runner's shape: the generic
// Register decodes the payload into the job type, wraps that adapter in
// the registry's middleware (which take the job's kind beside the
// handler) and keeps a pointer to a Task entry, the adapter in its exec
// field, in a map by kind. Lookup returns the entry, not its handler, and
// Task.Exec runs the handler. The package settles nothing: the runner of
// package dispatch Acks where Exec returns nil, so the facts here say what
// is stored where and what returns it; the package that imports both
// decides.
//
// The look-alikes: Observer entries, whose Notify returns the handler's
// result too, but which the runner only logs; Probe entries, whose Try
// calls the handler and drops its result; Canary entries, whose messages
// the runner Naks on nil.
package queue

import (
	"context"
	"encoding/json"
	"fmt"
)

// Kinded is a job type: Kind is called on the zero value.
type Kinded interface{ Kind() string }

// Func runs one raw payload.
type Func func(ctx context.Context, payload []byte) error

// Middleware wraps the handler of a kind.
type Middleware func(kind string, next Func) Func

// Task is a registered kind.
type Task struct {
	Kind     string
	Attempts int
	exec     Func
}

// Exec runs the task's handler on a payload.
func (t *Task) Exec(ctx context.Context, payload []byte) error { // want Exec:"returns Task.exec's result"
	return t.exec(ctx, payload)
}

// Observer is told of every job of a kind.
type Observer struct{ notify Func }

// Notify passes the payload on.
func (o *Observer) Notify(ctx context.Context, payload []byte) error { // want Notify:"returns Observer.notify's result"
	return o.notify(ctx, payload)
}

// Probe checks a payload without running it.
type Probe struct{ check Func }

// Try runs the check and reports nothing of it.
func (p *Probe) Try(ctx context.Context, payload []byte) error {
	_ = p.check(ctx, payload)
	return nil
}

// Canary runs a job on a test lane.
type Canary struct{ run Func }

// Run runs the canary.
func (c *Canary) Run(ctx context.Context, payload []byte) error { // want Run:"returns Canary.run's result"
	return c.run(ctx, payload)
}

// Registry keeps the entries by kind.
type Registry struct {
	tasks     map[string]*Task
	mws       []Middleware
	observers map[string]*Observer
	probes    map[string]*Probe
	canaries  map[string]*Canary
}

// New returns an empty Registry using mws, outermost first.
func New(mws ...Middleware) *Registry {
	return &Registry{tasks: map[string]*Task{}, mws: mws, observers: map[string]*Observer{}, probes: map[string]*Probe{}, canaries: map[string]*Canary{}}
}

// Register adds a typed handler for T's kind.
func Register[T Kinded](reg *Registry, fn func(ctx context.Context, job T) error) { // want Register:"stores handler param 1 in Task.exec"
	var zero T
	kind := zero.Kind()
	h := Func(func(ctx context.Context, payload []byte) error {
		var job T
		if err := json.Unmarshal(payload, &job); err != nil {
			return fmt.Errorf("queue: %s: %w", kind, err)
		}
		return fn(ctx, job)
	})
	for i := len(reg.mws) - 1; i >= 0; i-- {
		h = reg.mws[i](kind, h)
	}
	reg.tasks[kind] = &Task{Kind: kind, Attempts: 3, exec: h}
}

// Raw adds an untyped handler of kind behind the first middleware, which
// takes the kind beside it.
func Raw(reg *Registry, kind string, fn Func) { // want Raw:"stores handler param 2 in Task.exec"
	reg.tasks[kind] = &Task{Kind: kind, Attempts: 1, exec: reg.mws[0](kind, fn)}
}

// Lookup returns the task of kind.
func (r *Registry) Lookup(kind string) (*Task, bool) {
	t, ok := r.tasks[kind]
	return t, ok
}

// Observe adds an observer of kind.
func Observe(reg *Registry, kind string, fn Func) { // want Observe:"stores handler param 2 in Observer.notify"
	reg.observers[kind] = &Observer{notify: fn}
}

// ObserverOf returns the observer of kind.
func (r *Registry) ObserverOf(kind string) (*Observer, bool) {
	o, ok := r.observers[kind]
	return o, ok
}

// AddProbe adds a probe of kind.
func AddProbe(reg *Registry, kind string, fn Func) {
	reg.probes[kind] = &Probe{check: fn}
}

// ProbeOf returns the probe of kind.
func (r *Registry) ProbeOf(kind string) *Probe { return r.probes[kind] }

// AddCanary adds a canary of kind.
func AddCanary(reg *Registry, kind string, fn Func) { // want AddCanary:"stores handler param 2 in Canary.run"
	reg.canaries[kind] = &Canary{run: fn}
}

// CanaryOf returns the canary of kind.
func (r *Registry) CanaryOf(kind string) *Canary { return r.canaries[kind] }
