package bus

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

// JSON adapts a typed handler: it decodes the payload and calls h with it.
func JSON[T any](h func(ctx context.Context, v T) error) Handler {
	return func(ctx context.Context, msg jetstream.Msg) error {
		var v T
		if err := json.Unmarshal(msg.Data(), &v); err != nil {
			return err
		}
		return h(ctx, v)
	}
}
