// Package runner runs the registry's jobs without a message in sight: it
// sees the registry's FieldFacts and stays silent (contract.Silence).
package runner

import (
	"context"

	"contract/silent/registry"
)

// Run runs the job of kind on payload.
func Run(ctx context.Context, r *registry.Registry, kind string, payload []byte) error {
	e, ok := r.Lookup(kind)
	if !ok {
		return nil
	}
	return e.Run(ctx, payload)
}
