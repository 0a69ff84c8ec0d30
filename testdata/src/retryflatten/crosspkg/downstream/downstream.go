// Package downstream flattens errors of the upstream producer, directly and
// through middle's helpers: every finding needs a fact from another package.
package downstream

import (
	"fmt"

	"retryflatten/crosspkg/middle"
	"retryflatten/crosspkg/upstream"
)

type Handler struct{ inv *upstream.Client }

func (h *Handler) _(sku string) error {
	if err := h.inv.Reserve(sku, 1); err != nil {
		return fmt.Errorf("reserve %s: %v", sku, err) // want `retryable error err formatted with %v`
	}
	return nil
}

func (h *Handler) _(sku string) error {
	err := h.inv.Release(sku)
	return middle.Annotate("release", err) // want `Annotate flattens retryable error err to a string`
}

func (h *Handler) _(sku string) error {
	err := middle.Context("release", h.inv.Release(sku))
	return fmt.Errorf("handler: %s", err) // want `retryable error err formatted with %s`
}

func (h *Handler) _(sku string) error {
	return middle.Chain(h.inv.Reserve(sku, 2)) // want `Chain flattens retryable error`
}

func (h *Handler) _(sku string) error {
	// Ping returns no carrier: flattening it loses nothing.
	return middle.Annotate("ping", h.inv.Ping())
}

func (h *Handler) _(sku string) error {
	return middle.Context("reserve", h.inv.Reserve(sku, 3))
}
