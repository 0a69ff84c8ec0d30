package bus_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// crashEnv makes the test binary, re-executed by TestCrashBetweenDeadLetterAndTerm,
// run as a worker that exits between the DLQ write and Term.
const (
	crashEnv  = "RETRYLINT_BUS_CRASH_WORKER_URL"
	crashExit = 3
)

func TestMain(m *testing.M) {
	if url := os.Getenv(crashEnv); url != "" {
		os.Exit(crashWorker(url))
	}
	os.Exit(m.Run())
}

// crashWorker consumes ORDERS/worker with a handler that fails permanently,
// and exits with crashExit once the DLQ write is confirmed, before Term.
func crashWorker(url string) int {
	nc, err := nats.Connect(url)
	if err != nil {
		return 10
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return 11
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cons, err := js.Consumer(ctx, "ORDERS", "worker")
	if err != nil {
		return 12
	}
	store, err := dlq.New(ctx, js, dlq.WithoutCreate())
	if err != nil {
		return 13
	}
	r, err := bus.NewRunner(ctx, cons, store,
		func(context.Context, bus.Msg) error { return errDeclined },
		bus.WithLogger(slog.New(slog.DiscardHandler)),
		bus.WithBeforeTerm(func(*dlq.Entry) { os.Exit(crashExit) }))
	if err != nil {
		return 14
	}
	_ = r.Run(ctx)
	return 15 // the crash point was never reached
}

func TestCrashBetweenDeadLetterAndTerm(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: time.Second})
	seq := e.publish("orders.crash", "x", nil)

	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+e.srv.URL())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != crashExit {
		t.Fatalf("worker: %v, want exit code %d; output:\n%s", err, crashExit, out)
	}

	// The evidence is stored; the message was never terminated.
	if got := e.entries(); len(got) != 1 || got[0].StreamSeq != seq || got[0].Deliveries != 1 {
		t.Fatalf("DLQ after the crash: %+v", got)
	}
	if info := e.info(cons); info.NumAckPending != 1 {
		t.Fatalf("after the crash %d messages wait for an ack, want 1", info.NumAckPending)
	}

	// A restarted worker gets the redelivery, writes the DLQ again (stored
	// once) and terminates it.
	_, rec := e.start(cons, func(context.Context, bus.Msg) error { return errDeclined })
	evs := rec.wait(t, 15*time.Second, "the redelivery", count(1))
	ev := evs[0]
	if ev.NumDelivered != 2 || ev.Decision.Action != bus.ActionDeadLetter || ev.DeadLetterErr != nil || ev.AckErr != nil {
		t.Fatalf("after restart: %s", describe(evs))
	}
	waitFor(t, 5*time.Second, "the Term to land", func() bool {
		info, err := cons.Info(t.Context())
		return err == nil && info.NumAckPending == 0 && info.NumPending == 0
	})
	time.Sleep(1500 * time.Millisecond) // an ack wait and more: nothing comes back
	if got := e.entries(); len(got) != 1 || got[0].StreamSeq != seq {
		t.Fatalf("DLQ holds %d entries for one message, want exactly 1: %+v", len(got), got)
	}
	if n := len(rec.all()); n != 1 {
		t.Fatalf("%d deliveries after the restart, want 1", n)
	}
}

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestServerRestartMidRunLosesNothing(t *testing.T) {
	const total = 1000
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 2 * time.Second, MaxDeliver: -1})

	var (
		mu        sync.Mutex
		acked     = map[int]bool{}
		processed atomic.Int64
		failed    atomic.Int64 // deliveries whose DLQ write or acknowledgement failed
	)
	id := func(subject string) int {
		n, err := strconv.Atoi(strings.TrimPrefix(subject, "orders."))
		if err != nil {
			t.Errorf("subject %q", subject)
		}
		return n
	}
	h := func(_ context.Context, m bus.Msg) error {
		i := id(m.Subject())
		md, _ := m.Metadata()
		time.Sleep(5 * time.Millisecond) // some work: the restart lands mid-run
		switch {
		case i%10 == 0:
			return errDeclined // permanent: dead-lettered
		case i%7 == 0 && md.NumDelivered == 1:
			return retry.RetryAfter(io.ErrUnexpectedEOF, 50*time.Millisecond)
		}
		return nil
	}
	rec := func(ev bus.Event) {
		processed.Add(1)
		if ev.DeadLetterErr != nil || ev.AckErr != nil {
			failed.Add(1)
		}
		if ev.Decision.Action == bus.ActionAck && ev.AckErr == nil {
			mu.Lock()
			acked[id(ev.Subject)] = true
			mu.Unlock()
		}
	}
	r, err := bus.NewRunner(t.Context(), cons, e.dlq, h,
		bus.WithLogger(e.log), bus.WithObserver(rec), bus.WithConcurrency(4),
		bus.WithDeadLetterRetryDelay(200*time.Millisecond), bus.WithDeadLetterTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	e.run(r)

	for i := 1; i <= total; i++ {
		if _, err := e.js.PublishAsync("orders."+strconv.Itoa(i), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-e.js.PublishAsyncComplete():
	case <-time.After(10 * time.Second):
		t.Fatal("publishing did not complete")
	}

	waitFor(t, 20*time.Second, "a third of the run", func() bool { return processed.Load() >= total/3 })
	e.srv.Shutdown()
	if n := processed.Load(); n > total*2/3 {
		t.Fatalf("the server stopped after %d of %d deliveries: not mid-run", n, total)
	}
	// The outage outlasts the DLQ write timeout: writes fail, acks and naks
	// are buffered or lost, and the runner works on.
	time.Sleep(1500 * time.Millisecond)
	if err := e.srv.Restart(); err != nil {
		t.Fatal(err)
	}
	t.Logf("server restarted after %d deliveries", processed.Load())

	waitFor(t, 60*time.Second, "every message to be acked or terminated", func() bool {
		info, err := cons.Info(t.Context())
		return err == nil && info.NumPending == 0 && info.NumAckPending == 0
	})

	inDLQ := map[int]int{}
	for _, en := range e.entries() {
		inDLQ[id(en.Subject)]++
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i <= total; i++ {
		switch {
		case inDLQ[i] > 1:
			t.Errorf("message %d is in the DLQ %d times", i, inDLQ[i])
		case !acked[i] && inDLQ[i] == 0:
			t.Errorf("message %d was lost: neither acked after success nor in the DLQ", i)
		case i%10 == 0 && (acked[i] || inDLQ[i] != 1):
			t.Errorf("permanent failure %d: acked %v, in DLQ %d times", i, acked[i], inDLQ[i])
		case i%10 != 0 && inDLQ[i] != 0:
			t.Errorf("message %d succeeds but is in the DLQ", i)
		}
	}
	t.Logf("%d deliveries for %d messages (%d with a failed DLQ write or ack); %d acked, %d dead-lettered",
		processed.Load(), total, failed.Load(), len(acked), len(inDLQ))
}
