// Package flatten is linted as golangci-lint's plugin lints it: the
// related location of a flattening helper's finding is in another
// package's file, named relative to the finding's.
package flatten

import (
	"errors"
	"fmt"
	"time"

	"pluginrelated/wire"
	"retrykit"
)

func reserve() error { return retrykit.RetryAfter(errors.New("busy"), time.Second) }

// release flattens through a helper of another package: the related
// location is in that package's file, named relative to this one.
func release() error {
	if err := reserve(); err != nil {
		return wire.Describe("release", err) // want `Describe flattens retryable error err to a string and loses its retry delay: make Describe wrap it with %w \(see: \.\./wire/wire\.go:10:6: Describe flattens its error parameter here\)$`
	}
	return nil
}

// restock wraps with %w: no finding, no related location.
func restock() error {
	if err := reserve(); err != nil {
		return fmt.Errorf("restock: %w", err)
	}
	return nil
}

var _, _ = release, restock
