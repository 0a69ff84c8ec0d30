package bus_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/retry"
)

// TestNewRunnerChecksOptionsAgainstEachOther: options each in range but
// that together would be silently overridden (a delay above the cap that
// clamps it) or defeat their purpose (heartbeats slower than the
// consumer's ack wait, read from the server) are refused, naming both.
func TestNewRunnerChecksOptionsAgainstEachOther(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	h := func(context.Context, bus.Msg) error { return nil }
	cons := e.consumer(jetstream.ConsumerConfig{Durable: "worker", AckWait: 2 * time.Second})
	slow, err := retry.NewPolicy(retry.WithCap(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	noWorkers := bus.ClassPolicy{Class: "no_workers", Match: bus.Is(errNoWorkers), Delays: []time.Duration{2 * time.Minute}, Within: 3 * time.Minute}
	for name, c := range map[string]struct {
		opts []bus.Option
		says []string
	}{
		"poison delay over the nak cap":      {[]bus.Option{bus.WithPoisonDelay(time.Minute), bus.WithMaxNakDelay(30 * time.Second)}, []string{"poison delay 1m0s", "max nak delay 30s"}},
		"dlq retry delay over the nak cap":   {[]bus.Option{bus.WithDeadLetterRetryDelay(time.Minute), bus.WithMaxNakDelay(30 * time.Second)}, []string{"dead-letter retry delay 1m0s"}},
		"backoff over the nak cap":           {[]bus.Option{bus.WithBackoff(slow)}, []string{"largest delay 1h0m0s", "max nak delay 10m0s"}},
		"class delay over the nak cap":       {[]bus.Option{bus.WithClassPolicies(noWorkers), bus.WithMaxNakDelay(time.Minute)}, []string{`"no_workers"`, "delay 2m0s"}},
		"grace window past the age budget":   {[]bus.Option{bus.WithClassPolicies(noWorkers), bus.WithMaxAge(3 * time.Minute)}, []string{"grace window 3m0s", "message-age budget 3m0s"}},
		"heartbeat not under the ack wait":   {[]bus.Option{bus.WithHeartbeat(2 * time.Second)}, []string{"heartbeat 2s", "ack wait 2s"}},
		"more workers than the pull buffers": {[]bus.Option{bus.WithConcurrency(8), bus.WithPullMaxMessages(4)}, []string{"concurrency 8", "4 messages"}},
	} {
		_, err := bus.NewRunner(ctx, cons, e.dlq, h, c.opts...)
		if !errors.Is(err, bus.ErrInvalidOption) {
			t.Errorf("%s: %v, want ErrInvalidOption", name, err)
			continue
		}
		for _, s := range c.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", name, err, s)
			}
		}
	}
	// Both conflicts at once are both reported.
	_, err = bus.NewRunner(ctx, cons, e.dlq, h, bus.WithHeartbeat(time.Minute), bus.WithConcurrency(8), bus.WithPullMaxMessages(4))
	if err == nil || !strings.Contains(err.Error(), "heartbeat") || !strings.Contains(err.Error(), "concurrency") {
		t.Errorf("two conflicts: %v", err)
	}
	// The same options, agreeing, are taken.
	if _, err := bus.NewRunner(ctx, cons, e.dlq, h, bus.WithHeartbeat(time.Second), bus.WithConcurrency(4), bus.WithPullMaxMessages(4),
		bus.WithClassPolicies(noWorkers), bus.WithMaxAge(time.Hour), bus.WithBackoff(slow), bus.WithMaxNakDelay(time.Hour)); err != nil {
		t.Errorf("agreeing options: %v", err)
	}
}
