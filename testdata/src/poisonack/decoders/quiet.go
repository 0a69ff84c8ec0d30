package decoders

// The look-alikes of decoders.go: calls of the same libraries that are
// not decodes of the payload (a well-formedness check, a validation, an
// encode, a decode of something else), and the correct handling of a
// decode failure.

import (
	"context"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/vmihailenco/msgpack/v5"
)

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	if err := cbor.Wellformed(msg.Data()); err != nil {
		_ = msg.Ack()
		return
	}
	if err := c.dm.Valid(msg.Data()); err != nil {
		_ = msg.Nak()
		return
	}
	_ = msg.Ack()
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg, r Reading) {
	data, err := msgpack.Marshal(r)
	if err != nil {
		_ = msg.Ack()
		return
	}
	_ = data
	_ = msg.Ack()
}

// The codec's schema is not the payload.
func (c *Consumer) _(ctx context.Context, msg jetstream.Msg, schema []byte) {
	var r Reading
	if err := msgpack.Unmarshal(schema, &r); err != nil {
		_ = msg.Ack()
		return
	}
	_ = msg.Ack()
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	var r Reading
	if err := msgpack.Unmarshal(msg.Data(), &r); err != nil {
		if err := c.park(ctx, msg.Data()); err != nil {
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		_ = msg.Term()
		return
	}
	_ = msg.Ack()
}
