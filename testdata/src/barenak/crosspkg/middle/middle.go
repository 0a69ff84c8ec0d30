// Package middle builds on upstream: a client whose method is a producer
// through %w, and a predicate whose name matches no pattern, known as a
// classifier only through its fact.
package middle

import (
	"context"
	"fmt"
	"time"

	"barenak/crosspkg/upstream"
)

type Inventory struct{}

// Reserve is a retryable producer through upstream.Unavailable.
func (c *Inventory) Reserve(ctx context.Context, sku string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("reserve %s: %w", sku, upstream.Unavailable("inventory", 10*time.Second))
	}
	return nil
}

// Lookup is not a producer: its errors carry no retry intent.
func (c *Inventory) Lookup(sku string) error {
	return fmt.Errorf("lookup %s: not found", sku)
}

// WorthRetrying is a retry predicate by inference.
func WorthRetrying(err error) bool {
	_, ok := upstream.Backoff(err)
	return ok
}
