// Package otelbus connects a bus.Runner to OpenTelemetry: a span per
// delivery, whose parent is the trace context the message carries and
// whose attributes are the runner's decision and what is left of the
// message's retries (bus.class, bus.attempt, bus.attempts_left,
// bus.delay_s, bus.budget_left_s, bus.budget_end, bus.budget_ended);
// trace context injected into dead-letter entries, so that a replay
// continues the trace; and metrics of deliveries by outcome, handler time,
// DLQ writes and failures, redelivery delays, heartbeats, attempts and
// what is left of them (bus.retry.attempt, bus.retry.attempts_left,
// bus.retry.budget_left, by action and class), and the DLQ's depth read
// from the server (DLQDepth). It is a package of its own so that users of
// package bus who do not want OpenTelemetry do not import it.
//
//	inst, err := otelbus.New(otel.GetTracerProvider(), otel.GetMeterProvider(), otel.GetTextMapPropagator())
//	r, err := bus.NewRunner(ctx, cons, inst.DeadLetterWriter(store),
//		bus.Chain(handler, inst.Middleware()), bus.WithObserver(inst.Observe),
//		bus.WithHeartbeatObserver(inst.ObserveHeartbeat))
//	reg, err := inst.DLQDepth(store) // the bus.dlq.depth gauge; reg.Unregister() when done
//
// The middleware starts the span before the handler runs (so the
// handler's own spans are its children) and the observer ends it once the
// runner has acted, with the decision. Deliveries the handler does not run
// for (a dead letter retried, a delivery past the cap) get a span of the
// observer's own.
package otelbus

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
)

// ScopeName names the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/retrylint/retrylint/runtime/bus/otelbus"

// maxOpen bounds the spans waiting for their delivery's event: a runner
// reports every delivery whose handler ran, but a span whose event never
// comes (a process stopped mid-delivery) must not be kept forever.
const maxOpen = 10000

// Instrumentation records a runner's deliveries. Create it with New; it is
// safe for concurrent use.
type Instrumentation struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator

	deliveries  metric.Int64Counter
	handlerTime metric.Float64Histogram
	dlqWrites   metric.Int64Counter
	nakDelay    metric.Float64Histogram
	heartbeats  metric.Int64Counter
	attempts    metric.Int64Histogram
	left        metric.Int64Histogram
	budgetLeft  metric.Float64Histogram
	meter       metric.Meter

	mu   sync.Mutex
	open map[delivery]trace.Span
}

// delivery identifies one delivery of a message to a consumer.
type delivery struct {
	stream, consumer string
	seq, delivered   uint64
}

// New returns the instrumentation of a runner on these providers.
func New(tp trace.TracerProvider, mp metric.MeterProvider, prop propagation.TextMapPropagator) (*Instrumentation, error) {
	if tp == nil || mp == nil || prop == nil {
		return nil, fmt.Errorf("otelbus: nil provider or propagator")
	}
	m := mp.Meter(ScopeName)
	in := &Instrumentation{tracer: tp.Tracer(ScopeName), prop: prop, open: make(map[delivery]trace.Span), meter: m}
	var err error
	if in.deliveries, err = m.Int64Counter("bus.deliveries",
		metric.WithDescription("Deliveries handled, by the runner's action and class.")); err != nil {
		return nil, err
	}
	if in.handlerTime, err = m.Float64Histogram("bus.handler.duration", metric.WithUnit("s"),
		metric.WithDescription("How long handler calls ran.")); err != nil {
		return nil, err
	}
	if in.dlqWrites, err = m.Int64Counter("bus.dlq.writes",
		metric.WithDescription("DLQ writes, by result (ok or failed).")); err != nil {
		return nil, err
	}
	if in.nakDelay, err = m.Float64Histogram("bus.nak.delay", metric.WithUnit("s"),
		metric.WithDescription("Delays of the redeliveries the runner asked for.")); err != nil {
		return nil, err
	}
	if in.heartbeats, err = m.Int64Counter("bus.heartbeats",
		metric.WithDescription("InProgress heartbeats sent for long handler calls, by result (ok or failed).")); err != nil {
		return nil, err
	}
	if in.attempts, err = m.Int64Histogram("bus.retry.attempt",
		metric.WithDescription("Attempt number of each failed or snoozed delivery (releases and snoozes are not attempts), by action and class.")); err != nil {
		return nil, err
	}
	if in.left, err = m.Int64Histogram("bus.retry.attempts_left",
		metric.WithDescription("Attempts left under the tightest cap after each failed or snoozed delivery, by action and class (0: given up).")); err != nil {
		return nil, err
	}
	if in.budgetLeft, err = m.Float64Histogram("bus.retry.budget_left", metric.WithUnit("s"),
		metric.WithDescription("Time left of the tightest time budget (grace window, message age) after each failed or snoozed delivery under one, by action and class.")); err != nil {
		return nil, err
	}
	return in, nil
}

// ObserveHeartbeat is the runner's heartbeat observer
// (bus.WithHeartbeatObserver): it counts heartbeats, by result.
func (in *Instrumentation) ObserveHeartbeat(h bus.Heartbeat) {
	result := "ok"
	if h.Err != nil {
		result = "failed"
	}
	in.heartbeats.Add(context.Background(), 1, metric.WithAttributes(attribute.String("result", result)))
}

// Middleware extracts the trace context from each message's headers and
// runs the handler in the delivery's span.
func (in *Instrumentation) Middleware() bus.Middleware {
	return func(next bus.Handler) bus.Handler {
		return func(ctx context.Context, msg bus.Msg) error {
			md, err := msg.Metadata()
			if err != nil {
				return next(ctx, msg)
			}
			ctx = in.prop.Extract(ctx, propagation.HeaderCarrier(msg.Headers()))
			ctx, span := in.tracer.Start(ctx, msg.Subject()+" process", trace.WithSpanKind(trace.SpanKindConsumer),
				trace.WithAttributes(
					attribute.String("messaging.system", "nats"),
					attribute.String("messaging.destination.name", msg.Subject()),
					attribute.String("messaging.consumer.group.name", md.Consumer),
					attribute.Int64("messaging.nats.stream.sequence", int64(md.Sequence.Stream)),
					attribute.Int64("messaging.nats.delivered", int64(md.NumDelivered)),
				))
			if a, ok := bus.AttemptFromContext(ctx); ok {
				span.SetAttributes(attribute.Int("bus.attempt", a.Number))
				if !a.AgeBudgetEnd.IsZero() {
					span.SetAttributes(attribute.String("bus.budget_end", a.AgeBudgetEnd.UTC().Format(time.RFC3339Nano)))
				}
			}
			in.keep(delivery{md.Stream, md.Consumer, md.Sequence.Stream, md.NumDelivered}, span)
			return next(ctx, msg)
		}
	}
}

func (in *Instrumentation) keep(d delivery, span trace.Span) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.open) >= maxOpen {
		for k, s := range in.open {
			s.End()
			delete(in.open, k)
			break
		}
	}
	in.open[d] = span
}

// span returns the open span of d, and keeps it open.
func (in *Instrumentation) span(d delivery) (trace.Span, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	s, ok := in.open[d]
	return s, ok
}

func (in *Instrumentation) take(d delivery) (trace.Span, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	s, ok := in.open[d]
	delete(in.open, d)
	return s, ok
}

// Observe is the runner's observer (bus.WithObserver): it ends the
// delivery's span with the decision and records the metrics.
func (in *Instrumentation) Observe(ev bus.Event) {
	ctx := context.Background()
	d := delivery{ev.Stream, ev.Consumer, ev.StreamSeq, ev.NumDelivered}
	span, ok := in.take(d)
	if !ok {
		_, span = in.tracer.Start(ctx, ev.Subject+" process", trace.WithSpanKind(trace.SpanKindConsumer),
			trace.WithTimestamp(time.Now().Add(-ev.HandlerTime)))
	}
	outcome := []attribute.KeyValue{
		attribute.String("bus.action", ev.Decision.Action.String()),
		attribute.String("bus.class", string(ev.Decision.Class)),
	}
	span.SetAttributes(outcome...)
	span.SetAttributes(attribute.String("bus.reason", ev.Decision.Reason))
	if ev.Decision.Delay > 0 {
		span.SetAttributes(attribute.String("bus.delay", ev.Decision.Delay.String()),
			attribute.Float64("bus.delay_s", ev.Decision.Requested.Seconds()))
	}
	b := ev.Decision.Budget
	if b.Attempt > 0 {
		span.SetAttributes(attribute.Int("bus.attempt", b.Attempt), attribute.Int("bus.attempts_left", b.AttemptsLeft))
		if !b.End.IsZero() {
			span.SetAttributes(attribute.Float64("bus.budget_left_s", b.Left.Seconds()),
				attribute.String("bus.budget_end", b.End.UTC().Format(time.RFC3339Nano)))
		}
		if b.Ended != "" {
			span.SetAttributes(attribute.String("bus.budget_ended", b.Ended))
		}
	}
	if ev.Err != nil {
		span.RecordError(ev.Err)
	}
	switch {
	case ev.DeadLetterErr != nil:
		span.SetStatus(codes.Error, "dead-letter write failed: "+ev.DeadLetterErr.Error())
	case ev.AckErr != nil:
		span.SetStatus(codes.Error, "acknowledgement failed: "+ev.AckErr.Error())
	case ev.Err != nil:
		span.SetStatus(codes.Error, ev.Err.Error())
	}
	span.End()

	in.deliveries.Add(ctx, 1, metric.WithAttributes(outcome...))
	if ev.HandlerTime > 0 {
		in.handlerTime.Record(ctx, ev.HandlerTime.Seconds(), metric.WithAttributes(outcome...))
	}
	if ev.Decision.Action == bus.ActionNakWithDelay {
		in.nakDelay.Record(ctx, ev.Decision.Delay.Seconds(), metric.WithAttributes(outcome...))
	}
	if b.Attempt > 0 {
		in.attempts.Record(ctx, int64(b.Attempt), metric.WithAttributes(outcome...))
		in.left.Record(ctx, int64(b.AttemptsLeft), metric.WithAttributes(outcome...))
		if !b.End.IsZero() {
			in.budgetLeft.Record(ctx, b.Left.Seconds(), metric.WithAttributes(outcome...))
		}
	}
}

// DepthReader reports how many messages a DLQ holds. *dlq.Store
// implements it.
type DepthReader interface {
	Name() string
	Depth(ctx context.Context) (uint64, error)
}

// DLQDepth registers bus.dlq.depth, a gauge of the messages the DLQ
// stream holds, read from the server at each collection (one stream info
// request): dead letters waiting for an operator, which no delivery metric
// shows once they are written. Unregister it with the Registration.
func (in *Instrumentation) DLQDepth(dlqs ...DepthReader) (metric.Registration, error) {
	if len(dlqs) == 0 || slices.Contains(dlqs, nil) {
		return nil, fmt.Errorf("otelbus: DLQDepth needs DLQs")
	}
	g, err := in.meter.Int64ObservableGauge("bus.dlq.depth",
		metric.WithDescription("Messages in the DLQ stream, read from the server at each collection."))
	if err != nil {
		return nil, err
	}
	return in.meter.RegisterCallback(func(ctx context.Context, o metric.Observer) error {
		var errs []error
		for _, d := range dlqs {
			n, err := d.Depth(ctx)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			o.ObserveInt64(g, int64(min(n, 1<<63-1)), metric.WithAttributes(attribute.String("dlq.stream", d.Name())))
		}
		return errors.Join(errs...)
	}, g)
}

// DeadLetterWriter wraps w: each entry carries the trace context of the
// delivery that dead-letters it (in its headers, which a replay
// republishes, so the replayed delivery's span continues the trace), and
// each write is counted, by result.
func (in *Instrumentation) DeadLetterWriter(w bus.DeadLetterWriter) bus.DeadLetterWriter {
	return &deadLetterWriter{in: in, w: w}
}

type deadLetterWriter struct {
	in *Instrumentation
	w  bus.DeadLetterWriter
}

// ConsumerTakes forwards to the wrapped writer, so that the runner can
// still check the consumer a replayed copy is meant for (see
// bus.ReplayTargetChecker); errors.ErrUnsupported when it cannot.
func (d *deadLetterWriter) ConsumerTakes(ctx context.Context, stream, consumer, subject string) (bool, error) {
	if c, ok := d.w.(bus.ReplayTargetChecker); ok {
		return c.ConsumerTakes(ctx, stream, consumer, subject)
	}
	return false, errors.ErrUnsupported
}

// HandBack forwards to the wrapped writer, so that the runner can still
// hand back a dead letter it cannot store on the server's last delivery
// (see bus.HandBacker); errors.ErrUnsupported when it cannot.
func (d *deadLetterWriter) HandBack(ctx context.Context, e *dlq.Entry, from uint64) (*jetstream.PubAck, error) {
	if hb, ok := d.w.(bus.HandBacker); ok {
		return hb.HandBack(ctx, e, from)
	}
	return nil, errors.ErrUnsupported
}

func (d *deadLetterWriter) Write(ctx context.Context, e *dlq.Entry) error {
	if span, ok := d.in.span(delivery{e.Stream, e.Consumer, e.StreamSeq, e.Deliveries}); ok {
		e.Header = cloneHeader(e.Header)
		d.in.prop.Inject(trace.ContextWithSpan(ctx, span), propagation.HeaderCarrier(e.Header))
	}
	err := d.w.Write(ctx, e)
	result := "ok"
	if err != nil {
		result = "failed"
	}
	d.in.dlqWrites.Add(ctx, 1, metric.WithAttributes(attribute.String("result", result)))
	return err
}
