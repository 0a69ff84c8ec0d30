// Package registry keeps job handlers in entries that a runner of another
// package calls (a FieldFact), with no message in sight.
package registry

import "context"

// Entry is one registered job.
type Entry struct {
	Kind string
	run  func(ctx context.Context, payload []byte) error
}

// Run runs the job's handler.
func (e *Entry) Run(ctx context.Context, payload []byte) error {
	return e.run(ctx, payload)
}

// Registry holds entries by kind.
type Registry struct{ entries map[string]*Entry }

// Register keeps fn for kind.
func (r *Registry) Register(kind string, fn func(ctx context.Context, payload []byte) error) {
	if r.entries == nil {
		r.entries = make(map[string]*Entry)
	}
	r.entries[kind] = &Entry{Kind: kind, run: fn}
}

// Lookup returns the entry of kind.
func (r *Registry) Lookup(kind string) (*Entry, bool) {
	e, ok := r.entries[kind]
	return e, ok
}
