package otelbus_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/bus/otelbus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/natstest"
	"github.com/retrylint/retrylint/runtime/retry"
)

// TestSpansAndMetrics runs a runner with the instrumentation against the
// embedded server: two messages published under a producer's span, one
// handled, one rejected for good. Each delivery's span is a child of the
// producer's, carries the decision, and parents the handler's own spans;
// the DLQ entry carries the dead-lettering delivery's trace context; the
// metrics count the outcomes and the DLQ write.
func TestSpansAndMetrics(t *testing.T) {
	js, store, cons := setup(t)
	ctx := t.Context()

	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	prop := propagation.TraceContext{}
	inst, err := otelbus.New(tp, mp, prop)
	if err != nil {
		t.Fatal(err)
	}

	// The producer's span, propagated in the headers.
	pctx, producer := tp.Tracer("producer").Start(context.Background(), "orders publish")
	for _, subject := range []string{"orders.ok", "orders.rejected"} {
		m := nats.NewMsg(subject)
		prop.Inject(pctx, propagation.HeaderCarrier(m.Header))
		if _, err := js.PublishMsg(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	producer.End()

	events := make(chan bus.Event, 4)
	h := func(ctx context.Context, m bus.Msg) error {
		_, child := tp.Tracer("handler").Start(ctx, "charge")
		child.End()
		if m.Subject() == "orders.rejected" {
			return retry.Permanent(errors.New("unknown customer"))
		}
		return nil
	}
	r, err := bus.NewRunner(ctx, cons, inst.DeadLetterWriter(store), bus.Chain(h, inst.Middleware()),
		bus.WithObserver(func(ev bus.Event) { inst.Observe(ev); events <- ev }))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(runCtx) }()
	for range 2 {
		select {
		case <-events:
		case <-time.After(10 * time.Second):
			t.Fatal("no event")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans.Ended() {
		if s.Name() != "charge" {
			byName[s.Name()] = s
		}
	}
	want := map[string]string{"orders.ok process": "ack", "orders.rejected process": "dead-letter"}
	for name, action := range want {
		s := byName[name]
		if s == nil {
			t.Fatalf("no span %q among %v", name, spans.Ended())
		}
		if s.Parent().TraceID() != producer.SpanContext().TraceID() || s.Parent().SpanID() != producer.SpanContext().SpanID() {
			t.Errorf("%s: parent %v, want the producer's span", name, s.Parent())
		}
		if got := attr(s, "bus.action"); got != action {
			t.Errorf("%s: bus.action %q, want %q", name, got, action)
		}
	}
	children := 0
	for _, s := range spans.Ended() {
		if s.Name() == "charge" && (s.Parent().SpanID() == byName["orders.ok process"].SpanContext().SpanID() ||
			s.Parent().SpanID() == byName["orders.rejected process"].SpanContext().SpanID()) {
			children++
		}
	}
	if children != 2 {
		t.Errorf("%d handler spans under the deliveries' spans, want 2", children)
	}

	var entries []*dlq.Entry
	for e, err := range store.Entries(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	if len(entries) != 1 {
		t.Fatalf("%d DLQ entries, want 1", len(entries))
	}
	sc := trace.SpanContextFromContext(prop.Extract(context.Background(), propagation.HeaderCarrier(entries[0].Header)))
	if sc.SpanID() != byName["orders.rejected process"].SpanContext().SpanID() {
		t.Errorf("the DLQ entry carries span %v, want the dead-lettering delivery's", sc.SpanID())
	}

	counts := counters(t, reader)
	if counts["bus.deliveries ack"] != 1 || counts["bus.deliveries dead-letter"] != 1 || counts["bus.dlq.writes ok"] != 1 {
		t.Errorf("counters: %v", counts)
	}
}

// setup starts a server with an ORDERS stream, a DLQ and a consumer.
func setup(t *testing.T) (jetstream.JetStream, *dlq.Store, jetstream.Consumer) {
	t.Helper()
	srv := natstest.Start(t)
	_, js := srv.MustConnect(t)
	ctx := t.Context()
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	if err != nil {
		t.Fatal(err)
	}
	store, err := dlq.New(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := st.CreateOrUpdateConsumer(ctx, bus.ConsumerConfig("billing"))
	if err != nil {
		t.Fatal(err)
	}
	return js, store, cons
}

// counters collects the counters of reader: name, then the action or
// result attribute, to the sum of their values.
func counters(t *testing.T, reader *sdkmetric.ManualReader) map[string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok {
				for _, dp := range sum.DataPoints {
					key := m.Name
					for _, kv := range dp.Attributes.ToSlice() {
						if kv.Key == "bus.action" || kv.Key == "result" {
							key += " " + kv.Value.AsString()
						}
					}
					counts[key] += dp.Value
				}
			}
		}
	}
	return counts
}

// TestHeartbeats: a handler that runs for several heartbeat intervals
// gets heartbeats, and the instrumentation counts them.
func TestHeartbeats(t *testing.T) {
	js, store, cons := setup(t)
	ctx := t.Context()
	reader := sdkmetric.NewManualReader()
	inst, err := otelbus.New(sdktrace.NewTracerProvider(), sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), propagation.TraceContext{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "orders.slow", nil); err != nil {
		t.Fatal(err)
	}
	handled := make(chan struct{})
	r, err := bus.NewRunner(ctx, cons, store, func(context.Context, bus.Msg) error {
		time.Sleep(300 * time.Millisecond)
		return nil
	}, bus.WithHeartbeat(40*time.Millisecond), bus.WithHeartbeatObserver(inst.ObserveHeartbeat),
		bus.WithObserver(func(bus.Event) { close(handled) }))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(runCtx) }()
	select {
	case <-handled:
	case <-time.After(10 * time.Second):
		t.Fatal("not handled")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := counters(t, reader)["bus.heartbeats ok"]; n < 2 {
		t.Errorf("%d heartbeats counted over a 300ms call with a 40ms interval, want several", n)
	}
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if kv.Key == attribute.Key(key) {
			return kv.Value.AsString()
		}
	}
	return ""
}
