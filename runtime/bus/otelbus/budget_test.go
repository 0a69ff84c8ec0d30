package otelbus_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/bus/otelbus"
	"github.com/retrylint/retrylint/runtime/dlq"
)

var errNoWorkers = errors.New("no workers")

// TestRetryBudgetOnSpansAndMetrics: a message of a class capped at three
// attempts, under a one-hour message-age budget. Each delivery's span
// carries the class, the attempt, the attempts left, the selected delay
// and the time budget left; the last one, which dead-letters, says which
// budget ended, and its attempt is the DLQ entry's (read from the
// server). The histograms record the attempts left by class, and the
// DLQ-depth gauge reports what the server's stream info says.
func TestRetryBudgetOnSpansAndMetrics(t *testing.T) {
	js, store, cons := setup(t)
	ctx := t.Context()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	inst, err := otelbus.New(tp, sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), propagation.TraceContext{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inst.DLQDepth(store); err != nil {
		t.Fatal(err)
	}
	events := make(chan bus.Event, 8)
	r, err := bus.NewRunner(ctx, cons, inst.DeadLetterWriter(store),
		bus.Chain(func(context.Context, bus.Msg) error { return errNoWorkers }, inst.Middleware()),
		bus.WithObserver(func(ev bus.Event) { inst.Observe(ev); events <- ev }),
		bus.WithMaxAge(time.Hour),
		bus.WithClassPolicies(bus.ClassPolicy{Class: "no_workers", Match: bus.Is(errNoWorkers),
			Delays: []time.Duration{50 * time.Millisecond, 80 * time.Millisecond}, MaxAttempts: 3}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "orders.1", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(runCtx) }()
	for range 3 {
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

	var entries []*dlq.Entry
	for e, err := range store.Entries(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	if len(entries) != 1 || entries[0].Attempts != 3 || entries[0].Class != "no_workers" {
		t.Fatalf("DLQ: %+v", entries)
	}
	ended := spans.Ended()
	if len(ended) != 3 {
		t.Fatalf("%d spans, want 3", len(ended))
	}
	for i, s := range ended {
		attempt := int64(i + 1)
		if got := attr(s, "bus.class"); got != "no_workers" {
			t.Errorf("span %d: bus.class %q", attempt, got)
		}
		if got := intAttr(s, "bus.attempt"); got != attempt {
			t.Errorf("span %d: bus.attempt %d", attempt, got)
		}
		if got := intAttr(s, "bus.attempts_left"); got != 3-attempt {
			t.Errorf("span %d: bus.attempts_left %d, want %d", attempt, got, 3-attempt)
		}
		left, ok := floatAttr(s, "bus.budget_left_s")
		switch {
		case attempt < 3 && (!ok || left <= 0 || left > 3600):
			t.Errorf("span %d: bus.budget_left_s %v, %v, want in (0, 3600]", attempt, left, ok)
		case attempt == 3 && attr(s, "bus.budget_ended") != bus.BudgetAttempts:
			t.Errorf("span 3: bus.budget_ended %q", attr(s, "bus.budget_ended"))
		}
		if delay, _ := floatAttr(s, "bus.delay_s"); attempt < 3 && delay != []float64{0.05, 0.08}[attempt-1] {
			t.Errorf("span %d: bus.delay_s %v", attempt, delay)
		}
	}
	if last := ended[2]; uint64(intAttr(last, "bus.attempt")) != entries[0].Attempts {
		t.Errorf("the dead-lettering span's attempt %d, the DLQ entry's %d", intAttr(last, "bus.attempt"), entries[0].Attempts)
	}

	info, err := js.Stream(ctx, store.Name())
	if err != nil {
		t.Fatal(err)
	}
	depth := info.CachedInfo().State.Msgs
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var gauge int64 = -1
	var leftCount uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Gauge[int64]:
				if m.Name == "bus.dlq.depth" && len(d.DataPoints) == 1 {
					gauge = d.DataPoints[0].Value
				}
			case metricdata.Histogram[int64]:
				if m.Name == "bus.retry.attempts_left" {
					for _, dp := range d.DataPoints {
						if v, _ := dp.Attributes.Value("bus.class"); v.AsString() == "no_workers" {
							leftCount += dp.Count
						}
					}
				}
			}
		}
	}
	if depth != 1 || gauge != int64(depth) {
		t.Errorf("bus.dlq.depth %d, the server's DLQ stream holds %d", gauge, depth)
	}
	if leftCount != 3 {
		t.Errorf("bus.retry.attempts_left recorded %d times for no_workers, want 3", leftCount)
	}
}

func intAttr(s sdktrace.ReadOnlySpan, key string) int64 {
	for _, kv := range s.Attributes() {
		if kv.Key == attribute.Key(key) {
			return kv.Value.AsInt64()
		}
	}
	return -1
}

func floatAttr(s sdktrace.ReadOnlySpan, key string) (float64, bool) {
	for _, kv := range s.Attributes() {
		if kv.Key == attribute.Key(key) {
			return kv.Value.AsFloat64(), true
		}
	}
	return 0, false
}
