package bus_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/retry"
)

// stubMsg is a message outside any server.
type stubMsg struct{ subject string }

func (m stubMsg) Subject() string    { return m.subject }
func (stubMsg) Data() []byte         { return []byte("{}") }
func (stubMsg) Headers() nats.Header { return nil }
func (stubMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{NumDelivered: 2, Sequence: jetstream.SequencePair{Stream: 42}}, nil
}

func TestChainOrder(t *testing.T) {
	var trace []string
	mark := func(name string) bus.Middleware {
		return func(next bus.Handler) bus.Handler {
			return func(ctx context.Context, m bus.Msg) error {
				trace = append(trace, name+" in")
				err := next(ctx, m)
				trace = append(trace, name+" out")
				return err
			}
		}
	}
	h := bus.Chain(func(context.Context, bus.Msg) error { trace = append(trace, "handler"); return nil }, mark("a"), mark("b"))
	if err := h(context.Background(), stubMsg{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(trace, ", "); got != "a in, b in, handler, b out, a out" {
		t.Errorf("order: %s", got)
	}
}

// TestRecover: a panic becomes a permanent *PanicError with the stack, and
// Decide dead-letters it.
func TestRecover(t *testing.T) {
	h := bus.Chain(func(context.Context, bus.Msg) error { panic("nil order") }, bus.Recover())
	err := h(context.Background(), stubMsg{})
	var pe *bus.PanicError
	if !errors.As(err, &pe) || pe.Value != "nil order" || !bytes.Contains(pe.Stack, []byte("middleware_test.go")) {
		t.Fatalf("err %v, want a *PanicError with the stack", err)
	}
	cfg := bus.DefaultConfig()
	if d := bus.Decide(bus.Input{NumDelivered: 1, Ran: true, Err: err}, &cfg); d.Action != bus.ActionDeadLetter || d.Class != bus.ClassPermanent {
		t.Errorf("decision %+v, want a permanent dead letter", d)
	}
}

// TestTimeout: a handler that returns its context's error after the
// middleware's timeout returns a transient error, even where unmarked
// errors are permanent; a marked error and a fast handler pass as they are.
func TestTimeout(t *testing.T) {
	cfg := bus.DefaultConfig()
	cfg.Unclassified = bus.UnclassifiedPermanent
	slow := bus.Chain(func(ctx context.Context, _ bus.Msg) error {
		<-ctx.Done()
		return fmt.Errorf("query: %w", ctx.Err())
	}, bus.Timeout(20*time.Millisecond))
	err := slow(context.Background(), stubMsg{})
	if d := bus.Decide(bus.Input{NumDelivered: 1, Ran: true, Err: err}, &cfg); d.Action != bus.ActionNakWithDelay || d.Class != bus.ClassTransient {
		t.Errorf("timed out: %v, decision %+v; want a transient retry", err, d)
	}
	marked := bus.Chain(func(ctx context.Context, _ bus.Msg) error {
		<-ctx.Done()
		return retry.Permanent(ctx.Err())
	}, bus.Timeout(20*time.Millisecond))
	if k := retry.Classify(marked(context.Background(), stubMsg{})).Kind; k != retry.KindPermanent {
		t.Errorf("marked permanent after the timeout: %v", k)
	}
	fast := bus.Chain(func(context.Context, bus.Msg) error { return errors.New("no such customer") }, bus.Timeout(time.Second))
	if err := fast(context.Background(), stubMsg{}); !retry.Unclassified(err) {
		t.Errorf("fast handler's error changed: %v", err)
	}
}

// TestLogger: a success at debug level, a failure at warn level with its
// classification, each with the subject and the delivery.
func TestLogger(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ok := bus.Chain(func(context.Context, bus.Msg) error { return nil }, bus.Logger(l))
	failing := bus.Chain(func(context.Context, bus.Msg) error {
		return retry.RetryAfter(errors.New("inventory busy"), 2*time.Second)
	}, bus.Logger(l))
	if err := ok(context.Background(), stubMsg{subject: "orders.created"}); err != nil {
		t.Fatal(err)
	}
	if err := failing(context.Background(), stubMsg{subject: "orders.created"}); err == nil {
		t.Fatal("the failure was swallowed")
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 ||
		!strings.Contains(lines[0], "level=DEBUG") || !strings.Contains(lines[0], `msg="bus: handled" subject=orders.created`) ||
		!strings.Contains(lines[0], "delivered=2 seq=42") ||
		!strings.Contains(lines[1], "level=WARN") || !strings.Contains(lines[1], "kind=delayed") ||
		!strings.Contains(lines[1], "retry_delay=2s") || !strings.Contains(lines[1], `err="inventory busy (retry after 2s)"`) {
		t.Errorf("log:\n%s", buf.String())
	}
}

// Middleware around a handler: Recover turns its panic into a permanent
// error, which the runner dead-letters with the stack in the evidence.
func ExampleChain() {
	h := bus.Chain(func(ctx context.Context, m bus.Msg) error {
		panic("nil order")
	}, bus.Recover(), bus.Timeout(time.Minute))

	err := h(context.Background(), stubMsg{subject: "orders.created"})
	cfg := bus.DefaultConfig()
	d := bus.Decide(bus.Input{NumDelivered: 1, Ran: true, Err: err}, &cfg)
	fmt.Println(err)
	fmt.Println(d.Action, d.Class)
	// Output:
	// bus: handler panic: nil order
	// dead-letter permanent
}

// TestMiddlewareOnTheServer runs a chain of the three middleware in a
// runner: the panic Recover turns into an error is dead-lettered with the
// stack in the evidence and terminated; the call Timeout cuts short is
// retried and then acked; Logger logs both.
func TestMiddlewareOnTheServer(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(bus.ConsumerConfig("worker"))
	panicked := e.publish("orders.panic", "{}", nil)
	e.publish("orders.slow", "{}", nil)
	var logs bytes.Buffer
	l := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var slowCalls atomic.Int32
	h := bus.Chain(func(ctx context.Context, m bus.Msg) error {
		if m.Subject() == "orders.panic" {
			panic("nil order")
		}
		if slowCalls.Add(1) == 1 {
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}, bus.Logger(l), bus.Recover(), bus.Timeout(100*time.Millisecond))
	_, rec := e.start(cons, h, bus.WithBackoff(fastPolicy(t)), bus.WithUnclassified(bus.UnclassifiedPermanent))
	rec.wait(t, 10*time.Second, "three outcomes", count(3))
	waitFor(t, 10*time.Second, "nothing pending", func() bool {
		info := e.info(cons)
		return info.NumPending == 0 && info.NumAckPending == 0
	})
	entries := e.entries()
	if len(entries) != 1 || entries[0].StreamSeq != panicked || !strings.Contains(entries[0].Error, "bus: handler panic: nil order") ||
		!strings.Contains(entries[0].Error, "Recover") {
		t.Fatalf("DLQ entries: %+v", entries)
	}
	waitFor(t, 5*time.Second, "the server's terminated advisory", func() bool { return slices.Equal(adv.terminated(), []uint64{panicked}) })
	if slowCalls.Load() != 2 {
		t.Errorf("%d calls of the slow message, want 2 (cut short, then retried)", slowCalls.Load())
	}
	if n := strings.Count(logs.String(), "bus: handler failed"); n != 2 || !strings.Contains(logs.String(), "bus: handled") {
		t.Errorf("logs:\n%s", logs.String())
	}
}

// TestLoggerSaysTheKindTheRunnerTakes: an unmarked connection reset, which
// the default runner retries, is logged kind=transient unmarked=true (it
// said kind=permanent), and the server redelivers it; under
// UnclassifiedPermanent the same error is logged kind=permanent and the
// DLQ holds it.
func TestLoggerSaysTheKindTheRunnerTakes(t *testing.T) {
	reset := &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%v", strict), func(t *testing.T) {
			e := newEnv(t)
			cons := e.consumer(bus.ConsumerConfig("worker"))
			var logs lockedBuffer
			l := slog.New(slog.NewTextHandler(&logs, nil))
			var calls atomic.Int32
			h := bus.Chain(func(context.Context, bus.Msg) error {
				if calls.Add(1) == 1 {
					return fmt.Errorf("fetch price: %w", reset)
				}
				return nil
			}, bus.Logger(l))
			opts := []bus.Option{bus.WithBackoff(fastPolicy(t))}
			if strict {
				opts = append(opts, bus.WithUnclassified(bus.UnclassifiedPermanent))
			}
			e.start(cons, h, opts...)
			e.publish("orders.1", "{}", nil)
			e.settled(cons)
			info := e.info(cons)
			entries := e.entries()
			switch {
			case !strict && (!strings.Contains(logs.String(), "kind=transient") || !strings.Contains(logs.String(), "unmarked=true") ||
				info.Delivered.Consumer != 2 || len(entries) != 0):
				t.Fatalf("default: %d deliveries, %d DLQ entries; log:\n%s", info.Delivered.Consumer, len(entries), logs.String())
			case strict && (!strings.Contains(logs.String(), "kind=permanent") || info.Delivered.Consumer != 1 || len(entries) != 1):
				t.Fatalf("UnclassifiedPermanent: %d deliveries, %d DLQ entries; log:\n%s", info.Delivered.Consumer, len(entries), logs.String())
			}
		})
	}
}
