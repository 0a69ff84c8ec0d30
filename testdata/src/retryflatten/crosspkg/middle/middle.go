// Package middle holds error helpers: one flattens its parameter (a fact
// tells callers elsewhere), one wraps it with %w (a fact too).
package middle

import (
	"errors"
	"fmt"
)

// Annotate flattens err into text.
func Annotate(op string, err error) error { // want Annotate:"flattens param 1"
	return errors.New(op + ": " + err.Error())
}

// Context wraps err with %w: a retryable argument stays retryable.
func Context(op string, err error) error {
	return fmt.Errorf("%s: %w", op, err)
}

// Chain flattens through Annotate.
func Chain(err error) error { // want Chain:"flattens param 0"
	if err == nil {
		return nil
	}
	if errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return Annotate("chain", err)
}
