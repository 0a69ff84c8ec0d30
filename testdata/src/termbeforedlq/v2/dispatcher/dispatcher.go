// Package dispatcher holds the version 2 shapes of termbeforedlq: dead-
// letter destinations passed as arguments (a Knative-like channel
// dispatcher), writers whose error is the write's, writers for ordering
// only, and swallowing writers, across packages.
package dispatcher

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"termbeforedlq/v2/guarded"
	"termbeforedlq/v2/sinks"
)

type Event struct {
	ID   string
	Body []byte
}

type Client struct{}

// Post delivers body to a destination URL.
func (c *Client) Post(ctx context.Context, dest string, body []byte) error { return nil }

type Handler struct {
	client            *Client
	js                jetstream.JetStream
	nc                *nats.Conn
	sinks             *sinks.Sinks
	engine            *guarded.Engine
	deadLetterSink    *string
	deadLetterSubject string
	dlqStream         string
	ordersSubject     string
	dlq               *DLQReader
	metrics           *Metrics
}

type Dispatcher struct{ h *Handler }

// SendEvent delivers an event to a destination.
func (d *Dispatcher) SendEvent(ctx context.Context, ev Event, dest string) error {
	return d.h.client.Post(ctx, dest, ev.Body)
}

// handleStatus Terms a message on a status that cannot be retried.
func handleStatus(msg jetstream.Msg, status int) {
	if status >= 400 && status < 500 && status != 429 {
		_ = msg.Term()
	}
}

// The Knative-like dispatcher: a helper Terms on a non-retriable status,
// then the caller sends to the dead-letter sink passed as an argument.
func (h *Handler) _(ctx context.Context, d *Dispatcher, msg jetstream.Msg, status int) error {
	ev := Event{Body: msg.Data()}
	handleStatus(msg, status) // want `call to handleStatus may Term the message before the DLQ write d.SendEvent`
	return d.SendEvent(ctx, ev, *h.deadLetterSink)
}

func executeRequest(ctx context.Context, dest string, body []byte) error { return nil }

// A dereferenced dead-letter sink passed to a function that executes.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Term() // want `Term before the DLQ write executeRequest`
	return executeRequest(ctx, *h.deadLetterSink, msg.Data())
}

// A local variable named like a DLQ as the destination.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg, dlqURL string) error {
	msg.Term() // want `Term before the DLQ write h.client.Post`
	return h.client.Post(ctx, dlqURL, msg.Data())
}

// A field as the destination, through a method that dispatches.
func (h *Handler) dispatch(ctx context.Context, ev Event, subject string) error {
	_, err := h.js.Publish(ctx, subject, ev.Body)
	return err
}

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.TermWithReason("rejected") // want `TermWithReason before the DLQ write h.dispatch`
	return h.dispatch(ctx, Event{Body: msg.Data()}, h.deadLetterSubject)
}

// A checked destination write whose failure falls through to Term.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) {
	if err := h.dispatch(ctx, Event{Body: msg.Data()}, h.deadLetterSubject); err != nil {
		log.Printf("dead letter: %v", err)
	}
	msg.Term() // want `Term on the failure path of the DLQ write h.dispatch`
}

// A destination through a func value whose name sends.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	sendFn := h.sinks.SendTo
	msg.Term() // want `Term before the DLQ write sendFn`
	return sendFn(ctx, h.deadLetterSubject, msg.Data())
}

// The subject of a message literal is a dead-letter field.
func (h *Handler) _(msg *nats.Msg) error {
	msg.Term() // want `Term before the DLQ write h.nc.PublishMsg`
	return h.nc.PublishMsg(&nats.Msg{Subject: h.deadLetterSubject, Data: msg.Data})
}

// Forward is a send verb.
func (h *Handler) forwardTo(ctx context.Context, stream string, body []byte) error { return nil }

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write h.forwardTo`
	return h.forwardTo(ctx, h.dlqStream, msg.Data())
}

// A checked writer of another package whose error is discarded.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	_ = h.sinks.Park(ctx, msg)
	return msg.Term() // want `Term after the DLQ write h.sinks.Park whose error is not checked`
}

// A swallowing writer of another package.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	h.sinks.Bury(ctx, msg)
	return msg.Term() // want `Term after the DLQ write h.sinks.Bury whose error is not checked`
}

// A swallowing writer deferred: it runs after the Term.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	defer h.sinks.Bury(ctx, msg)
	return msg.Term() // want `Term before the deferred DLQ write h.sinks.Bury runs`
}

// A checked writer of another package whose failure is only logged.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) {
	if err := h.sinks.Park(ctx, msg); err != nil {
		slog.Error("park", "err", err)
	}
	msg.Term() // want `Term on the failure path of the DLQ write h.sinks.Park`
}

// A writer for ordering only after the Term: its dead letter, when it
// writes one, comes too late.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term() // want `Term before the DLQ write h.engine.ProcessGuarded`
	return h.engine.ProcessGuarded(ctx, msg)
}

// A checked write through a destination argument, its error discarded.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	_ = h.sinks.SendTo(ctx, h.deadLetterSubject, msg.Data())
	return msg.Term() // want `Term after the DLQ write h.sinks.SendTo whose error is not checked`
}

// Not reported: the processGuarded shape. The business function's error
// is about the rules, not about the dead letter it may write deep down.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	if err := h.engine.ProcessGuarded(ctx, msg); err != nil {
		log.Printf("rejected: %v", err)
		return msg.Term()
	}
	return msg.Ack()
}

// Not reported: the checked destination write's failure Naks and returns.
func (h *Handler) _(ctx context.Context, d *Dispatcher, msg jetstream.Msg) error {
	if err := d.SendEvent(ctx, Event{Body: msg.Data()}, *h.deadLetterSink); err != nil {
		return msg.NakWithDelay(5 * time.Second)
	}
	return msg.Term()
}

// Not reported: logging a dead-letter destination.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	slog.Info("dead letter", "sink", *h.deadLetterSink)
	return nil
}

// Not reported: a helper that only logs the destination.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	sinks.Observe(h.deadLetterSubject)
	return nil
}

// Not reported: an error that names the dead-letter subject.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg, dlqSubject string) error {
	msg.Term()
	return fmt.Errorf("gave up; see %s", dlqSubject)
}

// Not reported: building and parsing do not send.
func NewDeadLetterSender(dest string) (*Dispatcher, error)         { return nil, nil }
func ParseSinkURL(dest string) (string, error)                     { return dest, nil }
func buildEnvelope(subject string, body []byte) (*nats.Msg, error) { return nil, nil }

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	_, err := NewDeadLetterSender(*h.deadLetterSink)
	return err
}

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	_, err := ParseSinkURL(*h.deadLetterSink)
	return err
}

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	_, err := url.Parse(*h.deadLetterSink)
	return err
}

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	_ = strings.Join([]string{h.deadLetterSubject, "v1"}, ".")
	_, err := buildEnvelope(h.deadLetterSubject, msg.Data())
	return err
}

// Not reported: sending to an ordinary destination.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	return h.dispatch(ctx, Event{Body: msg.Data()}, h.ordersSubject)
}

// Not reported: the dead letter concerns another message.
func (h *Handler) _(ctx context.Context, msg, other jetstream.Msg) error {
	msg.Term()
	return h.dispatch(ctx, Event{Body: other.Data()}, h.deadLetterSubject)
}

// Not reported: reading the dead-letter queue.
type DLQReader struct{}

func (r *DLQReader) Entries(ctx context.Context) ([]Event, error) { return nil, nil }

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	_, err := h.dlq.Entries(ctx)
	return err
}

// Not reported: a metric named after dead letters returns no error; a name
// alone never makes a write of a call that returns none.
type Metrics struct{}

func (m *Metrics) RecordDeadLetter(subject string) {}

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	msg.Term()
	h.metrics.RecordDeadLetter(h.deadLetterSubject)
	return nil
}

// Not reported: a writer for ordering only that writes only on a rare
// path, before the Term; its error is not the write's.
func (h *Handler) maybeArchive(ctx context.Context, msg jetstream.Msg) error {
	if len(msg.Data()) > 1<<20 {
		_ = h.sinks.Park(ctx, msg)
	}
	return nil
}

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	if err := h.maybeArchive(ctx, msg); err != nil {
		log.Print(err)
	}
	return msg.Term()
}

// Not reported: the dead-letter sink in an option constructor.
type Option func(*Handler)

func WithDeadLetterSink(url string) Option { return func(h *Handler) { h.deadLetterSink = &url } }

func _(msg jetstream.Msg) error {
	_ = WithDeadLetterSink("nats://dlq")
	return msg.Term()
}

// Delivery is a handler-side message interface.
type Delivery interface {
	Data() []byte
	Ack() error
	Term() error
}

// A user message interface, Termed before the dead letter is dispatched.
func (h *Handler) _(ctx context.Context, d Delivery) error {
	_ = d.Term() // want `Term before the DLQ write h.dispatch`
	return h.dispatch(ctx, Event{Body: d.Data()}, h.deadLetterSubject)
}

// Generic code: a worker over any event type sends to the dead-letter
// destination after the Term.
type Worker[T any] struct {
	h      *Handler
	decode func([]byte) (T, error)
}

func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := w.decode(msg.Data()); err != nil {
		msg.Term() // want `Term before the DLQ write w.h.client.Post`
		return w.h.client.Post(ctx, *w.h.deadLetterSink, msg.Data())
	}
	return msg.Ack()
}

// A Consume callback whose checked destination write's failure falls
// through to the Term.
func (h *Handler) consume(c jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		if err := h.dispatch(context.Background(), Event{Body: msg.Data()}, h.deadLetterSubject); err != nil {
			log.Print(err)
		}
		msg.Term() // want `Term on the failure path of the DLQ write h.dispatch`
	})
}

// Not reported: the same callback checking the write and retrying later.
func (h *Handler) consumeRight(c jetstream.Consumer) (jetstream.ConsumeContext, error) {
	return c.Consume(func(msg jetstream.Msg) {
		if err := h.dispatch(context.Background(), Event{Body: msg.Data()}, h.deadLetterSubject); err != nil {
			msg.NakWithDelay(5 * time.Second)
			return
		}
		msg.Term()
	})
}

// Not reported: a generic worker that checks the destination write.
func (w *Worker[T]) _(ctx context.Context, msg jetstream.Msg) error {
	if _, err := w.decode(msg.Data()); err != nil {
		if err := w.h.client.Post(ctx, *w.h.deadLetterSink, msg.Data()); err != nil {
			return msg.NakWithDelay(5 * time.Second)
		}
		return msg.Term()
	}
	return msg.Ack()
}

// Not reported: a user message interface, written and checked first.
func (h *Handler) _(ctx context.Context, d Delivery) error {
	if err := h.dispatch(ctx, Event{Body: d.Data()}, h.deadLetterSubject); err != nil {
		return err
	}
	return d.Term()
}

// Not reported: a sender that returns no error is not a write by its
// destination argument.
func (h *Handler) enqueueLater(subject string, body []byte) {}

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Term()
	h.enqueueLater(h.deadLetterSubject, msg.Data())
	return nil
}

// Not reported: validating the sink's address is not sending to it.
func validateSendTarget(dest string) error { return nil }

func (h *Handler) _(ctx context.Context, msg jetstream.Msg) error {
	_ = msg.Term()
	return validateSendTarget(*h.deadLetterSink)
}

// Not reported: a destination that is not named like a dead letter.
func (h *Handler) _(ctx context.Context, msg jetstream.Msg, sink string) error {
	_ = msg.Term()
	return h.client.Post(ctx, sink, msg.Data())
}
