package bus_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// switchableDLQ is the DLQ store, refusing writes while down is set.
type switchableDLQ struct {
	store *dlq.Store
	down  atomic.Bool
}

func (s *switchableDLQ) Write(ctx context.Context, e *dlq.Entry) error {
	if s.down.Load() {
		return errors.New("dlq: stream unavailable")
	}
	return s.store.Write(ctx, e)
}

// TestOutagePausesDeliveries: with the breaker on (WithOutagePause), after
// OutagePauseAfter DLQ writes fail in a row, the runner takes no delivery for the dead-letter retry delay (the
// good messages behind the dead letters wait, rather than turning the
// outage into a churn); once the DLQ is back, every message ends acked or
// dead-lettered, as the server tells.
func TestOutagePausesDeliveries(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(bus.ConsumerConfig("worker"))
	dead := &switchableDLQ{store: e.dlq}
	dead.down.Store(true)
	for range bus.OutagePauseAfter {
		e.publish("orders.poison", "{}", nil)
	}
	const good = 5
	for range good {
		e.publish("orders.good", "{}", nil)
	}

	const pause = time.Second
	var mu sync.Mutex
	var calls []time.Time
	h := func(_ context.Context, m bus.Msg) error {
		mu.Lock()
		calls = append(calls, time.Now())
		mu.Unlock()
		if strings.HasSuffix(m.Subject(), "poison") {
			return retry.Permanent(errors.New("unknown order type"))
		}
		return nil
	}
	rec := newRecorder()
	r, err := bus.NewRunner(t.Context(), cons, dead, h, bus.WithLogger(e.log), bus.WithObserver(rec.observe),
		bus.WithDeadLetterRetryDelay(pause), bus.WithPullMaxMessages(good+bus.OutagePauseAfter),
		bus.WithOutagePause(bus.OutagePauseAfter), bus.WithConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	e.run(r)

	// The dead letters come first: their writes fail, then the pause.
	evs := rec.wait(t, 10*time.Second, "the failed writes", func(evs []timed) bool {
		n := 0
		for _, ev := range evs {
			if ev.DeadLetterErr != nil {
				n++
			}
		}
		return n >= bus.OutagePauseAfter
	})
	var third time.Time
	for _, ev := range evs {
		if ev.DeadLetterErr != nil {
			third = ev.At
		}
	}
	rec.wait(t, 10*time.Second, "the good messages", func(evs []timed) bool {
		n := 0
		for _, ev := range evs {
			if ev.Decision.Action == bus.ActionAck {
				n++
			}
		}
		return n == good
	})
	mu.Lock()
	var next time.Time
	for _, c := range calls {
		if c.After(third) {
			next = c
			break
		}
	}
	mu.Unlock()
	if gap := next.Sub(third); gap < pause*8/10 {
		t.Errorf("the next handler call came %v after the third failed DLQ write, want a pause of about %v", gap, pause)
	}

	dead.down.Store(false)
	waitFor(t, 30*time.Second, "every message acked or dead-lettered", func() bool {
		info, err := cons.Info(t.Context())
		return err == nil && info.NumPending == 0 && info.NumAckPending == 0
	})
	if n := len(e.entries()); n != bus.OutagePauseAfter {
		t.Errorf("%d DLQ entries, want %d", n, bus.OutagePauseAfter)
	}
}

// TestDeadLetterOutageKeepsTrafficFlowing: the DLQ stream is gone (deleted
// on the server) while five messages fail permanently; twenty good
// messages published after their writes failed must be acked while the
// DLQ is still down, as the consumer's counters on the server show: the
// five candidates parked (ack pending, redelivered later, verdict kept),
// nothing else held. The runner used to pause every delivery after three
// failed writes, for up to the heartbeat interval (20 s here), doubling.
func TestDeadLetterOutageKeepsTrafficFlowing(t *testing.T) {
	const poison, good = 5, 20
	e := newEnv(t)
	cons := e.consumer(bus.ConsumerConfig("worker"))
	if err := e.js.DeleteStream(t.Context(), e.dlq.Name()); err != nil { // the DLQ goes down
		t.Fatal(err)
	}
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		if strings.HasSuffix(m.Subject(), "poison") {
			return retry.Permanent(errors.New("unknown order type"))
		}
		return nil
	}, bus.WithDeadLetterTimeout(time.Second))
	for range poison {
		e.publish("orders.poison", "{}", nil)
	}
	// Sequencing only: the runner's events say when the writes failed.
	rec.wait(t, 10*time.Second, "the failed DLQ writes", func(evs []timed) bool {
		n := 0
		for _, ev := range evs {
			if ev.DeadLetterErr != nil {
				n++
			}
		}
		return n >= poison
	})
	for range good {
		e.publish("orders.good", "{}", nil)
	}
	waitFor(t, 10*time.Second, "the good messages acked during the outage", func() bool {
		info := e.info(cons)
		return info.Delivered.Stream == poison+good && info.NumPending == 0 && info.NumAckPending == poison
	})
}
