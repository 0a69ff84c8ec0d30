package bus_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/retry"
)

func TestBackOffStretchesNakWithDelay(t *testing.T) {
	// The server behaviour the runner compensates, measured with the bare
	// jetstream API: NakWithDelay(d) on delivery k is redelivered after
	// d + BackOff[k-1] - BackOff[0].
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{BackOff: []time.Duration{100 * time.Millisecond, 1600 * time.Millisecond}, MaxDeliver: 5})
	e.publish("orders.1", "x", nil)
	var at []time.Time
	for len(at) < 3 {
		m, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
		if err != nil {
			t.Fatalf("fetch %d: %v", len(at)+1, err)
		}
		at = append(at, time.Now())
		if len(at) < 3 {
			if err := m.NakWithDelay(500 * time.Millisecond); err != nil {
				t.Fatal(err)
			}
		} else if err := m.Ack(); err != nil {
			t.Fatal(err)
		}
	}
	if g := at[1].Sub(at[0]); g < 400*time.Millisecond || g >= 1500*time.Millisecond {
		t.Fatalf("delivery 1 → 2 after NakWithDelay(500ms): %v, want about 500ms (no stretch)", g)
	}
	if g := at[2].Sub(at[1]); g < 1700*time.Millisecond {
		t.Fatalf("delivery 2 → 3 after NakWithDelay(500ms): %v, want about 2s (500ms + 1.5s stretch)", g)
	}
}

func TestBackOffIsCompensated(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{BackOff: []time.Duration{100 * time.Millisecond, 2100 * time.Millisecond}, MaxDeliver: 10})
	var d deliveries
	r, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		switch d.mark(m) {
		case 1:
			return retry.RetryAfter(io.ErrUnexpectedEOF, 300*time.Millisecond)
		case 2:
			return retry.RetryAfter(io.ErrUnexpectedEOF, 2500*time.Millisecond)
		}
		return nil
	})
	if got := r.Config().ConsumerBackOff; len(got) != 2 {
		t.Fatalf("runner did not read the consumer's BackOff: %v", got)
	}
	e.publish("orders.1", "x", nil)
	evs := rec.wait(t, 20*time.Second, "3 deliveries", count(3))
	// Delivery 2 is stretched by 2s: the runner sends 500ms for 2.5s.
	if got, want := actions(evs), []string{"nak-delay 300ms", "nak-delay 500ms", "ack"}; !slices.Equal(got, want) {
		t.Fatalf("actions = %q, want %q", got, want)
	}
	if evs[1].Decision.Requested != 2500*time.Millisecond {
		t.Fatalf("requested = %v", evs[1].Decision.Requested)
	}
	// Compensated: about 2.5s. Uncompensated it would be about 4.5s; an
	// ack-wait expiry would come at 2.1s.
	if g := d.gap(2, 3); g < 2200*time.Millisecond || g > 3800*time.Millisecond {
		t.Fatalf("redelivery after RetryAfter(2.5s) on delivery 2 came after %v", g)
	}
}

func TestBackOffCanBeRefused(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{BackOff: []time.Duration{time.Second, 5 * time.Second}, MaxDeliver: 10})
	_, err := bus.NewRunner(t.Context(), cons, e.dlq, func(context.Context, bus.Msg) error { return nil }, bus.WithBackOffMode(bus.BackOffRefuse))
	if !errors.Is(err, bus.ErrConsumerBackOff) {
		t.Fatalf("NewRunner with BackOffRefuse: %v, want ErrConsumerBackOff", err)
	}
}
