// Package notreported holds look-alikes poisonack must not report: delayed
// redelivery, a DLQ write before the settlement, decoding something other
// than the payload, no settlement, or a settlement after the failure path
// rejoined the normal flow.
package notreported

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Order struct {
	ID string `json:"id"`
}

type Worker struct {
	js jetstream.JetStream
}

func (w *Worker) parkDLQ(ctx context.Context, msg jetstream.Msg) error {
	_, err := w.js.Publish(ctx, "orders.DLQ", msg.Data())
	return err
}

// NakWithDelay on decode failure: the contract's first steps.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Ack()
}

// A checked DLQ write, then Term: the contract's last step.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		if err := w.parkDLQ(ctx, msg); err != nil {
			return msg.NakWithDelay(5 * time.Second)
		}
		return msg.Term()
	}
	return msg.Ack()
}

// A checked DLQ write, then Ack: moving the message is correct too.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		if err := w.parkDLQ(ctx, msg); err != nil {
			return msg.NakWithDelay(5 * time.Second)
		}
		return msg.Ack()
	}
	return msg.Ack()
}

// Returning without settling: the ack wait redelivers.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return err
	}
	return msg.Ack()
}

// Decoding a header value is not decoding the payload.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var trace map[string]string
	if err := json.Unmarshal([]byte(msg.Headers().Get("X-Trace")), &trace); err != nil {
		return msg.Ack()
	}
	return msg.Ack()
}

// Decoding a config file.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	f, err := os.Open("config.json")
	if err != nil {
		return err
	}
	defer f.Close()
	var cfg map[string]string
	if err := json.NewDecoder(f).Decode(&cfg); err != nil {
		log.Printf("config: %v", err)
		return msg.Ack()
	}
	return msg.Ack()
}

// Decoding an HTTP response body.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	resp, err := http.Post("https://billing.example/charge", "application/json", bytes.NewReader(msg.Data()))
	if err != nil {
		return msg.NakWithDelay(time.Second)
	}
	defer resp.Body.Close()
	var receipt map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&receipt); err != nil {
		return msg.Ack()
	}
	return msg.Ack()
}

// The failure branch logs and rejoins the normal flow; the Ack after it
// is not on the decode-failure path.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		log.Printf("partial decode: %v", err)
	}
	return msg.Ack()
}

// The decoded message is another one.
func (w *Worker) _(ctx context.Context, msg, prev jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(prev.Data(), &o); err != nil {
		return msg.Ack()
	}
	return msg.Ack()
}

// Encoding is not decoding.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	body, err := json.Marshal(Order{ID: string(msg.Data())})
	if err != nil {
		return msg.Ack()
	}
	_ = body
	return msg.Ack()
}

// A successful decode's path.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err == nil {
		return msg.Ack()
	}
	return msg.NakWithDelay(5 * time.Second)
}

// A decode of the payload read through io.ReadAll of an unrelated reader.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg, r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return msg.Ack()
	}
	return msg.Ack()
}

// The legacy API with a delayed Nak.
func _(msg *nats.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data, &o); err != nil {
		msg.NakWithDelay(5 * time.Second)
		return
	}
	msg.Ack()
}

// Nak in a nested function literal on the failure path: the literal is a
// function of its own, not called here.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) func() error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		return func() error { return msg.NakWithDelay(time.Second) }
	}
	return msg.Ack
}

// InProgress settles nothing.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		_ = msg.InProgress()
		return err
	}
	return msg.Ack()
}

// Term, then the DLQ write, on the decode failure: termbeforedlq's defect,
// reported once, by it.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) error {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		_ = msg.Term()
		return w.parkDLQ(ctx, msg)
	}
	return msg.Ack()
}

// A deferred Ack, but the decode failure settles the message first.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	defer msg.Ack()
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
}

// A deferred Ack registered after the decode.
func (w *Worker) _(ctx context.Context, msg jetstream.Msg) {
	var o Order
	if err := json.Unmarshal(msg.Data(), &o); err != nil {
		_ = msg.NakWithDelay(5 * time.Second)
		return
	}
	defer msg.Ack()
}
