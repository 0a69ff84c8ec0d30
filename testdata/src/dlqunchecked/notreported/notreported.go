// Package notreported holds look-alikes dlqunchecked must not report: the
// DLQ write is checked before the Ack, the Ack concerns another message,
// the call is not a DLQ write, or nothing is acked.
package notreported

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

type Event struct {
	ID string `json:"id"`
}

type Relay struct {
	js     jetstream.JetStream
	legacy nats.JetStreamContext // publishes through it are stored and acked (a core nc.Publish only buffers)
	nc     *nats.Conn
	logger *slog.Logger

	deadLetterSubject string
	dlqURL            string
}

func (r *Relay) moveToDLQ(ctx context.Context, msg jetstream.Msg, reason string) error {
	_, err := r.js.Publish(ctx, "relay.DLQ."+reason, msg.Data())
	return err
}

// Checked write, failure Naks with a delay and returns, then Ack: the
// correct way to move a message.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if err := r.moveToDLQ(ctx, msg, "poison"); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Ack()
}

// The same with the error assigned first.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	err := r.moveToDLQ(ctx, msg, "poison")
	if err != nil {
		r.logger.Error("dlq", "err", err)
		return err
	}
	return msg.Ack()
}

// Failure returns the error to the caller, which decides.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := r.js.Publish(ctx, "relay.dead-letter", msg.Data()); err != nil {
		return fmt.Errorf("dead letter: %w", err)
	}
	msg.Ack()
	return nil
}

// An Ack of the processed message, and a publish to an ordinary subject.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := r.js.Publish(ctx, "relay.out", msg.Data()); err != nil {
		log.Printf("forward: %v", err)
	}
	return msg.Ack()
}

// A DLQ subject in an error message and a log line is not a write.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if len(msg.Data()) == 0 {
		err := fmt.Errorf("empty payload; would go to %s", r.deadLetterSubject)
		r.logger.Info("dead letter", "sink", r.dlqURL, "err", err)
	}
	return msg.Ack()
}

// An option constructor named after the sink returns no error: not a write.
type Option func(*Relay)

func WithDeadLetterSink(url string) Option { return func(r *Relay) { r.dlqURL = url } }

func _(msg jetstream.Msg) error {
	_ = WithDeadLetterSink("nats://dlq")
	return msg.Ack()
}

// Reading the dead-letter stream is not writing it.
type DLQStore struct{}

func (s *DLQStore) Get(ctx context.Context, seq uint64) ([]byte, error) { return nil, nil }
func (s *DLQStore) Len(ctx context.Context) (int, error)                { return 0, nil }

func _(ctx context.Context, dlq *DLQStore, msg jetstream.Msg) error {
	if _, err := dlq.Get(ctx, 1); err != nil {
		log.Print(err)
	}
	if _, err := dlq.Len(ctx); err != nil {
		log.Print(err)
	}
	return msg.Ack()
}

// The write concerns another message: a replay loop acks each delivery
// after dead-lettering the previous batch's record.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg, other jetstream.Msg) error {
	_ = r.moveToDLQ(ctx, other, "batch")
	return msg.Ack()
}

// In a loop, a write in the next iteration concerns another message.
func (r *Relay) _(ctx context.Context, batch []jetstream.Msg) {
	for _, msg := range batch {
		msg.Ack()
		var ev Event
		if err := json.Unmarshal(msg.Data(), &ev); err != nil {
			continue
		}
	}
}

// The DLQ write is checked; its failure Naks and returns; an Ack on the
// success path after more work.
func (r *Relay) _(ctx context.Context, msg *nats.Msg) error {
	dead := nats.NewMsg("relay.DLQ")
	dead.Data = msg.Data
	if _, err := r.legacy.PublishMsg(dead); err != nil {
		return msg.NakWithDelay(10 * time.Second)
	}
	log.Printf("moved %s", msg.Subject)
	return msg.Ack()
}

// Nak with a delay after a failed write is right; no Ack is involved.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if err := r.moveToDLQ(ctx, msg, "x"); err != nil {
		log.Printf("dlq: %v", err)
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// errors.Is on the write's error and a return: checked.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	err := r.moveToDLQ(ctx, msg, "x")
	if errors.Is(err, context.Canceled) {
		return err
	}
	if err != nil {
		return msg.NakWithDelay(time.Second)
	}
	return msg.Ack()
}

// A deferred Ack is not judged.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	defer msg.Ack()
	return r.moveToDLQ(ctx, msg, "x")
}

// A function with no DLQ write at all.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	var ev Event
	if err := json.Unmarshal(msg.Data(), &ev); err != nil {
		r.logger.Warn("bad event", "err", err)
	}
	return msg.Ack()
}

// The dead-letter destination passed to a function that builds, not
// sends.
func buildEnvelope(subject string, body []byte) (*nats.Msg, error) {
	return &nats.Msg{Subject: subject, Data: body}, nil
}

func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := buildEnvelope(r.deadLetterSubject, msg.Data()); err != nil {
		log.Print(err)
	}
	return msg.Ack()
}

// The write's error is handed on to the caller through a channel.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg, errs chan<- error) error {
	err := r.moveToDLQ(ctx, msg, "x")
	errs <- err
	if err != nil {
		return msg.NakWithDelay(time.Second)
	}
	return msg.Ack()
}

// A deferred Ack, but the write's failure Naks with a delay in its return.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	defer msg.Ack()
	if err := r.moveToDLQ(ctx, msg, "x"); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return nil
}

// A deferred Ack deferred before a deferred DLQ write runs after it
// (last in, first out): the write comes first, as the contract asks.
func (r *Relay) _(ctx context.Context, msg jetstream.Msg) error {
	defer msg.Ack()
	defer r.moveToDLQ(ctx, msg, "deferred")
	return nil
}
