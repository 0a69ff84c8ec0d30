package bus_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
)

// TestUnclassifiedTimeoutIsRetried: a handler whose HTTP call timed out
// returns the timeout unmarked; by default the runner retries it and the
// next delivery succeeds: the server reports it acked, not terminated, and
// the DLQ stays empty. Under UnclassifiedPermanent the same error is
// dead-lettered and terminated on its first delivery.
func TestUnclassifiedTimeoutIsRetried(t *testing.T) {
	timeout := fmt.Errorf("GET inventory: %w", &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded})
	for _, strict := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "UnclassifiedPermanent"}[strict], func(t *testing.T) {
			e := newEnv(t)
			adv := e.captureAdvisories()
			cons := e.consumer(bus.ConsumerConfig("worker"))
			seq := e.publish("orders.created", "{}", nil)
			var calls atomic.Int32
			opts := []bus.Option{bus.WithBackoff(fastPolicy(t))}
			if strict {
				opts = append(opts, bus.WithUnclassified(bus.UnclassifiedPermanent))
			}
			_, rec := e.start(cons, func(context.Context, bus.Msg) error {
				if calls.Add(1) == 1 {
					return timeout
				}
				return nil
			}, opts...)
			want := 2
			if strict {
				want = 1
			}
			rec.wait(t, 10*time.Second, "the outcome", count(want))
			waitFor(t, 10*time.Second, "nothing pending", func() bool {
				info, err := cons.Info(t.Context())
				return err == nil && info.NumPending == 0 && info.NumAckPending == 0
			})
			if strict {
				waitFor(t, 5*time.Second, "the server's terminated advisory", func() bool { return len(adv.terminated()) > 0 })
			}
			terminated, entries := adv.terminated(), len(e.entries())
			switch {
			case !strict && (len(terminated) != 0 || entries != 0 || calls.Load() != 2):
				t.Errorf("default: %d calls, terminated %v, %d DLQ entries; want 2 calls, acked, no entry", calls.Load(), terminated, entries)
			case strict && (!slices.Equal(terminated, []uint64{seq}) || entries != 1 || calls.Load() != 1):
				t.Errorf("UnclassifiedPermanent: %d calls, terminated %v, %d DLQ entries; want 1 call, terminated, 1 entry", calls.Load(), terminated, entries)
			}
		})
	}
}
