// Package dispatch is the runner of package queue's registry: it looks a
// Task up by the message's subject, runs it through invoke (a deadline and
// panic recovery around Task.Exec, whose result it returns) and Acks where
// that result is nil: Task.exec of package queue is a handler field, known
// as one where this package and the registry are both in sight.
//
// The look-alikes: an Observer's result is only logged; a Probe's Try
// result is Acked on nil, but Try drops its handler's result; a Canary's
// message is Nakked on nil.
package dispatch

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"ackretryable/jobrunner/queue"
)

// Runner drives a queue.Registry.
type Runner struct{ reg *queue.Registry }

// New returns a Runner of reg.
func New(reg *queue.Registry) *Runner { return &Runner{reg: reg} }

// invoke runs one attempt of t.
func (r *Runner) invoke(ctx context.Context, t *queue.Task, msg jetstream.Msg) (err error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("dispatch: %s panicked: %v", t.Kind, p)
		}
	}()
	return t.Exec(ctx, msg.Data())
}

// handle settles one job from what its task returned.
func (r *Runner) handle(ctx context.Context, msg jetstream.Msg) { // want handle:"may Ack param 1; may NakWithDelay param 1" handle:"acks when ackretryable/jobrunner/queue.Task.exec returns nil"
	r.observe(ctx, msg)
	t, ok := r.reg.Lookup(msg.Subject())
	if !ok {
		_ = msg.NakWithDelay(time.Minute)
		return
	}
	err := r.invoke(ctx, t, msg)
	if err == nil {
		_ = msg.Ack()
		return
	}
	_ = msg.NakWithDelay(time.Duration(t.Attempts) * time.Second)
}

// observe tells the kind's observer; its result is logged.
func (r *Runner) observe(ctx context.Context, msg jetstream.Msg) {
	if o, ok := r.reg.ObserverOf(msg.Subject()); ok {
		if err := o.Notify(ctx, msg.Data()); err != nil {
			log.Printf("observer: %v", err)
		}
	}
}

// probe Acks a probed message whatever its check returned: Try drops it.
func (r *Runner) probe(ctx context.Context, msg jetstream.Msg) { // want probe:"may Ack param 1; may NakWithDelay param 1"
	if err := r.reg.ProbeOf(msg.Subject()).Try(ctx, msg.Data()); err == nil {
		_ = msg.Ack()
		return
	}
	_ = msg.NakWithDelay(time.Second)
}

// canary hands a canary's message back when it succeeded.
func (r *Runner) canary(ctx context.Context, msg jetstream.Msg) { // want canary:"may Nak param 1; may Term param 1"
	if err := r.reg.CanaryOf(msg.Subject()).Run(ctx, msg.Data()); err == nil {
		_ = msg.Nak()
		return
	}
	_ = msg.Term()
}
