// Package upstream is an inventory client whose errors carry retry intent:
// its functions are retryable producers, known downstream through facts.
package upstream

import (
	"errors"
	"fmt"
	"time"

	"retrykit"
)

type Client struct{}

// Reserve is a producer: it returns retrykit.RetryAfter.
func (c *Client) Reserve(sku string, qty int) error {
	if qty > 100 {
		return retrykit.RetryAfter(errors.New("warehouse busy"), 10*time.Second)
	}
	return nil
}

// Release is a producer through a %w wrap.
func (c *Client) Release(sku string) error {
	if err := c.Reserve(sku, 0); err != nil {
		return fmt.Errorf("release %s: %w", sku, err)
	}
	return nil
}

// Ping is no producer.
func (c *Client) Ping() error {
	return errors.New("unreachable")
}
