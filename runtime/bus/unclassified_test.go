package bus_test

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
)

// goneErrors are what a network or a database says when it is
// temporarily gone, each as a handler would return it, unmarked.
func goneErrors() map[string]error {
	sys := func(op string, errno syscall.Errno) error {
		return &net.OpError{Op: op, Net: "tcp", Err: &os.SyscallError{Syscall: op, Err: errno}}
	}
	return map[string]error{
		"temporary DNS failure": fmt.Errorf("dial inventory: %w", &net.OpError{Op: "dial", Net: "tcp",
			Err: &net.DNSError{Err: "server misbehaving", Name: "inventory.svc", IsTemporary: true}}),
		"host unreachable":       fmt.Errorf("billing: %w", sys("connect", syscall.EHOSTUNREACH)),
		"network unreachable":    fmt.Errorf("billing: %w", sys("connect", syscall.ENETUNREACH)),
		"broken pipe":            fmt.Errorf("send: %w", sys("write", syscall.EPIPE)),
		"connection aborted":     fmt.Errorf("send: %w", sys("read", syscall.ECONNABORTED)),
		"EOF from a closed conn": &url.Error{Op: "Post", URL: "http://pricing/quote", Err: io.EOF},
		"use of closed conn":     fmt.Errorf("read: %w", &net.OpError{Op: "read", Net: "tcp", Err: net.ErrClosed}),
		"bad database conn":      fmt.Errorf("insert order: %w", driver.ErrBadConn),
	}
}

// TestNetworkAndDatabaseOutagesAreRetried: each handler call fails once
// with what a network or a database says when it is temporarily gone,
// unmarked, and succeeds on the redelivery. By default nothing may be
// dead-lettered: the DLQ stays empty, the server terminated nothing, every
// message is acked, and each was delivered twice (the consumer's
// delivered sequence). They used to be dead-lettered on their first
// delivery.
func TestNetworkAndDatabaseOutagesAreRetried(t *testing.T) {
	errs := goneErrors()
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(bus.ConsumerConfig("worker"))
	var mu sync.Mutex
	failed := map[string]bool{}
	e.start(cons, func(_ context.Context, m bus.Msg) error {
		name := string(m.Data())
		mu.Lock()
		defer mu.Unlock()
		if !failed[name] {
			failed[name] = true
			return errs[name]
		}
		return nil
	}, bus.WithBackoff(fastPolicy(t)))
	for name := range errs {
		e.publish("orders.created", name, nil)
	}
	n := uint64(len(errs))
	waitFor(t, 10*time.Second, "every message acked", func() bool {
		info := e.info(cons)
		return info.NumPending == 0 && info.NumAckPending == 0 && info.Delivered.Stream == n
	})
	if got := e.entries(); len(got) != 0 {
		for _, en := range got {
			t.Errorf("dead-lettered: %s (%s)", en.Data, en.Error)
		}
	}
	if term := adv.terminated(); len(term) != 0 {
		t.Errorf("the server terminated %v", term)
	}
	if info := e.info(cons); info.Delivered.Consumer != 2*n {
		t.Errorf("%d deliveries of %d messages, want each delivered twice", info.Delivered.Consumer, n)
	}
}

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
