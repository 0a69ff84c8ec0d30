// Package inventory is the client of the inventory service. Its errors
// carry retry intent when the service is overloaded.
package inventory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/retrylint/retrylint/examples/orders/errs"
)

var errBusy = errors.New("inventory service busy")

// Client reserves stock.
type Client struct {
	Capacity int
}

// Reserve reserves qty units of sku. When the service is saturated it asks
// to be retried in 15 seconds.
func (c *Client) Reserve(ctx context.Context, sku string, qty int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if qty > c.Capacity {
		return errs.Transient("reserve "+sku, errBusy, 15*time.Second)
	}
	if qty <= 0 {
		return fmt.Errorf("reserve %s: %w", sku, errs.ErrInvalidOrder)
	}
	return nil
}

// Release gives stock back.
func (c *Client) Release(ctx context.Context, sku string) error {
	if err := c.Reserve(ctx, sku, 0); err != nil {
		return fmt.Errorf("release %s: %w", sku, err)
	}
	return nil
}
