// Package profile is a consumer of quemq, a message library known only
// through its profile: Requeue redelivers at once, RequeueAfter later.
package profile

import (
	"context"
	"errors"
	"time"

	"quemq"
	"retrykit"
)

type Store interface {
	Save(ctx context.Context, body []byte) error
}

type Consumer struct {
	store Store
}

func (c *Consumer) handle(ctx context.Context, d *quemq.Delivery) {
	err := c.store.Save(ctx, d.Body)
	if delay, ok := retrykit.RetryDelay(err); ok {
		d.Requeue() // want `bare Requeue redelivers transient error err at once and drops its retry delay: call RequeueAfter\(delay\)`
		_ = delay
		return
	}
	if err != nil {
		d.Discard("permanent")
		return
	}
	d.Accept()
}

func (c *Consumer) handleCarrier(ctx context.Context, d *quemq.Delivery) {
	err := c.store.Save(ctx, d.Body)
	var rd retrykit.Retryable
	if errors.As(err, &rd) {
		d.Requeue() // want `call RequeueAfter\(rd\.RetryDelay\(\)\)`
		return
	}
	d.Accept()
}

// The delayed retry, and a bare Requeue on a known zero delay, stay quiet.
func (c *Consumer) handleRight(ctx context.Context, d *quemq.Delivery) {
	err := c.store.Save(ctx, d.Body)
	if delay, ok := retrykit.RetryDelay(err); ok {
		if delay <= 0 {
			d.Requeue()
			return
		}
		d.RequeueAfter(delay)
		return
	}
	d.Accept()
}

// A bare Requeue on an error of unknown origin is not on a transient
// path, but on the error branch of a call never classified (version 3).
func (c *Consumer) handleUnknown(ctx context.Context, d *quemq.Delivery) {
	if err := c.store.Save(ctx, d.Body); err != nil {
		d.Requeue() // want `bare Requeue on the unclassified error of c.store.Save redelivers at once: .* call RequeueAfter with a backoff`
		time.Sleep(time.Millisecond)
		return
	}
	d.Accept()
}
