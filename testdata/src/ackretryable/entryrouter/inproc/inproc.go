// Package inproc keeps its own jobs as entries of a map, stored by a
// positional literal, and Serve Acks when the looked-up entry's run field
// returns nil: the functions it stores there are handlers. Its hooks, kept
// the same way in another map whose results Serve only logs, are not.
package inproc

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"retrykit"
)

type job struct {
	name string
	run  func(ctx context.Context, m jetstream.Msg) error
}

// Runner runs the jobs by subject.
type Runner struct {
	jobs  map[string]job
	hooks map[string]job
}

// Setup adds the built-in job and hook.
func (r *Runner) Setup() {
	r.jobs["sweep"] = job{"sweep", r.sweep}
	r.hooks["sweep"] = job{"sweep.hook", r.afterSweep}
}

func (r *Runner) sweep(ctx context.Context, m jetstream.Msg) error {
	if err := refresh(ctx); err != nil {
		return nil // want `retryable error err from refresh is dropped: returning nil makes the jobs field's caller Ack the message`
	}
	return nil
}

// Not reported: a hook's result is only logged.
func (r *Runner) afterSweep(ctx context.Context, m jetstream.Msg) error {
	if err := refresh(ctx); err != nil {
		return nil
	}
	return nil
}

// refresh is a retryable producer.
func refresh(ctx context.Context) error {
	return retrykit.RetryAfter(errors.New("cache busy"), time.Second)
}

// Serve runs the job of m's subject, then its hook.
func (r *Runner) Serve(ctx context.Context, m jetstream.Msg) {
	if h, ok := r.hooks[m.Subject()]; ok {
		defer func() {
			if err := h.run(ctx, m); err != nil {
				log.Printf("hook: %v", err)
			}
		}()
	}
	j, ok := r.jobs[m.Subject()]
	if !ok {
		return
	}
	if err := j.run(ctx, m); err != nil {
		_ = m.Nak()
		return
	}
	_ = m.Ack()
}
