// Package mw is middleware over payload handlers, with no message in
// sight: Logged still passes its handler parameter through (a middleware
// fact).
package mw

import (
	"context"
	"log"
)

// Handler handles a payload.
type Handler func(ctx context.Context, payload []byte) error

// Logged returns h, logging its failures.
func Logged(h Handler) Handler {
	return func(ctx context.Context, payload []byte) error {
		err := h(ctx, payload)
		if err != nil {
			log.Printf("handler failed: %v", err)
		}
		return err
	}
}
