// Package decoders proves the decoder table of contract version 3: the
// payload decoders of msgpack, cbor, yaml.v3, goavro and the CloudEvents
// SDK (whose NativeFromBinary, ToEvent and DataAs match no name pattern)
// start a decode-failure path; the other calls of the same libraries over
// the payload (quiet.go) do not.
package decoders

import (
	"bytes"
	"context"
	"log/slog"

	cenats "github.com/cloudevents/sdk-go/protocol/nats/v2"
	"github.com/cloudevents/sdk-go/v2/binding"
	"github.com/fxamacker/cbor/v2"
	"github.com/linkedin/goavro/v2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/vmihailenco/msgpack/v5"
	"gopkg.in/yaml.v3"
)

type Reading struct {
	Sensor string  `msgpack:"sensor" cbor:"1,keyasint" yaml:"sensor"`
	Value  float64 `msgpack:"value" cbor:"2,keyasint" yaml:"value"`
}

type Consumer struct {
	js    jetstream.JetStream
	dm    cbor.DecMode
	codec *goavro.Codec
	log   *slog.Logger
}

// park makes the package a service that dead-letters.
func (c *Consumer) park(ctx context.Context, data []byte) error {
	_, err := c.js.Publish(ctx, "readings.DLQ", data)
	return err
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	var r Reading
	if err := msgpack.Unmarshal(msg.Data(), &r); err != nil {
		c.log.Warn("bad reading", "err", err)
		_ = msg.Ack() // want `Ack on the decode failure of msgpack.Unmarshal drops the undecodable payload`
		return
	}
	_ = msg.Ack()
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	var r Reading
	dec := msgpack.NewDecoder(bytes.NewReader(msg.Data()))
	if err := dec.Decode(&r); err != nil {
		_ = msg.Nak() // want `bare Nak on the decode failure of dec.Decode`
		return
	}
	_ = msg.Ack()
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	var r Reading
	if err := c.dm.Unmarshal(msg.Data(), &r); err != nil {
		_ = msg.Term() // want `Term on the decode failure of c.dm.Unmarshal drops the payload without evidence`
		return
	}
	_ = msg.Ack()
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	var r Reading
	if err := yaml.Unmarshal(msg.Data(), &r); err != nil {
		_ = msg.Ack() // want `Ack on the decode failure of yaml.Unmarshal`
		return
	}
	_ = msg.Ack()
}

func (c *Consumer) _(ctx context.Context, msg jetstream.Msg) {
	native, _, err := c.codec.NativeFromBinary(msg.Data())
	if err != nil {
		_ = msg.Nak() // want `bare Nak on the decode failure of c.codec.NativeFromBinary`
		return
	}
	_ = native
	_ = msg.Ack()
}

// A CloudEvent over core NATS: ToEvent decodes the message, DataAs its
// data.
func (c *Consumer) _(ctx context.Context, msg *nats.Msg) {
	ev, err := binding.ToEvent(ctx, cenats.NewMessage(msg))
	if err != nil {
		_ = msg.Ack() // want `Ack on the decode failure of binding.ToEvent`
		return
	}
	var r Reading
	if err := ev.DataAs(&r); err != nil {
		_ = msg.Nak() // want `bare Nak on the decode failure of ev.DataAs`
		return
	}
	_ = msg.Ack()
}
