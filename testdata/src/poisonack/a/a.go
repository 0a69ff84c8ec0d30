// Package a holds the shapes poisonack reports: on the failure path of a
// payload decode, an Ack (the payload vanishes), a bare Nak (it comes back
// at once), or a Term with no DLQ write in a service that dead-letters
// elsewhere.
package a

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"encoding/xml"
	"log"
	"log/slog"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Order struct {
	ID  string `json:"id"`
	SKU string `json:"sku"`
}

type Worker struct {
	js     jetstream.JetStream
	nc     *nats.Conn
	jsctx  nats.JetStreamContext // the legacy JetStream API
	logger *slog.Logger
}

// parkDLQ makes the package a service that dead-letters.
func (w *Worker) parkDLQ(ctx context.Context, msg jetstream.Msg) error {
	_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		w.logger.Error("bad order", "err", err)
		return msg.Ack() // want `Ack on the decode failure of json.Unmarshal drops the undecodable payload as if it were handled: dead-letter it \(and check the write\) before acking, or NakWithDelay and dead-letter it at the delivery cap`
	}
	return msg.Ack()
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return msg.Nak() // want `bare Nak on the decode failure of json.Unmarshal redelivers the same payload at once, up to the delivery cap: NakWithDelay \(5s\) and dead-letter it at the cap`
	}
	return msg.Ack()
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return msg.Term() // want `Term on the decode failure of json.Unmarshal drops the payload without evidence, though this package dead-letters elsewhere`
	}
	return msg.Ack()
}

// TermWithReason is a Term.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return msg.TermWithReason("malformed") // want `TermWithReason on the decode failure of json.Unmarshal drops the payload without evidence`
	}
	return msg.Ack()
}

// The payload held in a variable, the error assigned first.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	data := msg.Data()
	var o Order
	err := json.Unmarshal(data, &o)
	if err != nil {
		log.Printf("decode: %v", err)
		msg.Ack() // want `Ack on the decode failure of json.Unmarshal`
		return
	}
	msg.Ack()
}

// A decoder over a reader over the payload.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	var o Order
	if err := json.NewDecoder(bytes.NewReader(msg.Data())).Decode(&o); err != nil {
		msg.Ack() // want `Ack on the decode failure of json.NewDecoder\(bytes.NewReader\(msg.Data\(\)\)\).Decode`
		return
	}
	msg.Ack()
}

// A decoder variable built over the payload.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	dec := gob.NewDecoder(bufio.NewReader(bytes.NewReader(msg.Data())))
	var o Order
	if err := dec.Decode(&o); err != nil {
		msg.Nak() // want `bare Nak on the decode failure of dec.Decode`
		return
	}
	msg.Ack()
}

// The legacy API: msg.Data is a field; AckSync is an Ack.
func (w *Worker) subscribe() (*nats.Subscription, error) {
	return w.jsctx.Subscribe("orders.created", func(msg *nats.Msg) {
		var o Order
		if err := xml.Unmarshal(msg.Data, &o); err != nil {
			msg.AckSync() // want `AckSync on the decode failure of xml.Unmarshal`
			return
		}
		msg.Ack()
	})
}

// A Consume callback.
func (w *Worker) consume(c jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		var o Order
		if err := json.Unmarshal(msg.Data(), &o); err != nil {
			msg.Nak() // want `bare Nak on the decode failure of json.Unmarshal`
			return
		}
		msg.Ack()
	})
}

// A decode function of the service's own, by its name.
func decodeOrder(data []byte) (Order, error) {
	var o Order
	err := json.Unmarshal(data, &o)
	return o, err
}

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	o, err := decodeOrder(msg.Data())
	if err != nil {
		return msg.Ack() // want `Ack on the decode failure of decodeOrder`
	}
	_ = o
	return msg.Ack()
}

// The else of err == nil is the failure path.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data()[4:], &o); err == nil {
		msg.Ack()
	} else {
		msg.Nak() // want `bare Nak on the decode failure of json.Unmarshal`
	}
}

// A helper that may Term the message, with no DLQ write before it.
func terminate(msg jetstream.Msg, reason string) { _ = msg.TermWithReason(reason) }

func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		terminate(msg, "malformed") // want `call to terminate may Term the message on the decode failure of json.Unmarshal drops the payload without evidence`
		return
	}
	msg.Ack()
}

// A user message interface.
type Delivery interface {
	Data() []byte
	Ack() error
	Nak() error
}

func _(d Delivery) error {
	var o Order
	if err := json.Unmarshal(d.Data(), &o); err != nil {
		return d.Ack() // want `Ack on the decode failure of json.Unmarshal`
	}
	return d.Ack()
}

// The payload converted to a string and decoded by a reader over it.
func (w *Worker) _(msg jetstream.Msg) {
	var o Order
	if err := json.NewDecoder(bytes.NewBufferString(string(msg.Data()))).Decode(&o); err != nil {
		msg.Ack() // want `Ack on the decode failure of json.NewDecoder`
	}
}

// A pending deferred Ack runs at the decode failure's return.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		w.logger.Warn("bad order", "err", err)
		return // want `the deferred Ack runs at this return on the decode failure of json.Unmarshal and drops the undecodable payload`
	}
}

// So does a deferred literal that only Acks, errcheck-clean.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	defer func() { _ = msg.Ack() }()
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return // want `the deferred Ack runs at this return on the decode failure of json.Unmarshal`
	}
}
