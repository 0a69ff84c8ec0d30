// Command retrydemo runs the retrylint runtime against an embedded NATS
// server and prints what happened to each message of a scripted mix.
//
// It needs nothing but Go: the server (nats-server with JetStream, file
// store in a temporary directory) runs in process. The mix covers every row
// of the retry contract:
//
//	ok             the handler succeeds                        Ack
//	transient      RetryAfter(err, 1s) twice, then success     NakWithDelay(1s), NakWithDelay(1s), Ack
//	permanent      an error with no retry intent               DLQ write, checked, then Term
//	poison         a payload that is not JSON                  NakWithDelay(5s) until delivery 3, then DLQ + Term
//	dlq-outage     permanent, and the DLQ write fails once     NakWithDelay(5s), never Term; then DLQ + Term
//	last-delivery  RetryAfter(err, 500ms) every time           NakWithDelay until the cap (4), then DLQ + Term
//	grace          "no pool mapping", a class with a grace      NakWithDelay(1s) while within 2.5s of its first failure,
//	               window (ClassPolicy.Within)                 then DLQ + Term under its own class, before the cap
//	too-old        RetryAfter(err, 1s) every time, under a     NakWithDelay(1s) until a retry would start 3s after the
//	               message-age budget of 3s (WithMaxAge)       message was stored, then DLQ + Term (max_age, its end)
//
// The DLQ outage is simulated by a writer that fails the first write for
// that message; every other write goes to the real DLQ stream. Retry
// records (attempts, first failures) live in a JetStream key-value bucket
// (package ledger), where every instance of a consumer would read them.
// The run takes about 11 seconds, most of it the poison message's two 5s
// delays.
//
// Usage:
//
//	go run ./cmd/retrydemo [-log]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/natstest"
	"github.com/retrylint/retrylint/runtime/retry"
)

// script is the mix, in the order of the table.
var script = []struct{ name, payload string }{
	{"ok", `{"order":1}`},
	{"transient", `{"order":2}`},
	{"permanent", `{"order":3}`},
	{"poison", `{"order":`},
	{"dlq-outage", `{"order":5}`},
	{"last-delivery", `{"order":6}`},
	{"grace", `{"order":7}`},
	{"too-old", `{"order":8}`},
}

const (
	maxDeliveries = 4
	maxAge        = 3 * time.Second
	runTimeout    = 60 * time.Second
)

var (
	errNoCustomer    = errors.New("customer does not exist")
	errNoPoolMapping = errors.New("no pool mapping for topic")
)

// noPoolMapping is a class that is a misconfiguration unless it clears
// quickly (a rollout race): retried for 2.5s from its first failure, then
// dead-lettered under its own name, well before the delivery cap.
var noPoolMapping = bus.ClassPolicy{
	Class:  "no_pool_mapping",
	Match:  bus.Is(errNoPoolMapping),
	Delays: []time.Duration{time.Second},
	Within: 2500 * time.Millisecond,
}

type order struct {
	Order int `json:"order"`
}

// handle is the demo's business logic, keyed by the message name.
func handle(_ context.Context, _ order, m bus.Msg) error {
	md, err := m.Metadata()
	if err != nil {
		return err
	}
	switch name(m.Subject()) {
	case "transient":
		if md.NumDelivered < 3 {
			return fmt.Errorf("reserve stock: %w", retry.RetryAfter(errors.New("inventory service unavailable"), time.Second))
		}
	case "permanent", "dlq-outage":
		return fmt.Errorf("charge order: %w", errNoCustomer)
	case "last-delivery":
		return fmt.Errorf("ship order: %w", retry.RetryAfter(errors.New("carrier API rate limited"), 500*time.Millisecond))
	case "grace":
		return fmt.Errorf("dispatch order: %w", errNoPoolMapping)
	case "too-old":
		return fmt.Errorf("price order: %w", retry.RetryAfter(errors.New("pricing service unavailable"), time.Second))
	}
	return nil
}

func name(subject string) string { return strings.TrimPrefix(subject, "demo.") }

// outage is a DLQ writer that fails the first write for one subject, as a
// DLQ outage would.
type outage struct {
	next    bus.DeadLetterWriter
	subject string
	mu      sync.Mutex
	failed  bool
}

func (o *outage) Write(ctx context.Context, e *dlq.Entry) error {
	o.mu.Lock()
	fail := e.Subject == o.subject && !o.failed
	o.failed = o.failed || fail
	o.mu.Unlock()
	if fail {
		return errors.New("dlq: nats: no responders available for request (simulated DLQ outage)")
	}
	return o.next.Write(ctx, e)
}

// step is one delivery of a message.
type step struct {
	at time.Duration
	ev bus.Event
}

func main() {
	showLog := flag.Bool("log", false, "print the runner's log (log/slog, debug level) to stderr")
	flag.Parse()
	if err := run(os.Stdout, *showLog); err != nil {
		fmt.Fprintln(os.Stderr, "retrydemo:", err)
		os.Exit(1)
	}
}

func run(out io.Writer, showLog bool) error {
	dir, err := os.MkdirTemp("", "retrydemo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srv, err := natstest.New(dir)
	if err != nil {
		return err
	}
	defer srv.Shutdown()
	nc, js, err := srv.Connect()
	if err != nil {
		return err
	}
	defer nc.Close()

	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	stream, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "DEMO", Subjects: []string{"demo.>"}})
	if err != nil {
		return err
	}
	store, err := dlq.New(ctx, js)
	if err != nil {
		return err
	}
	cons, err := stream.CreateOrUpdateConsumer(ctx, bus.ConsumerConfig("demo-worker", "demo.>"))
	if err != nil {
		return err
	}
	records, err := ledger.New(ctx, js)
	if err != nil {
		return err
	}

	logger := slog.New(slog.DiscardHandler)
	if showLog {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	var (
		mu      sync.Mutex
		steps   = map[string][]step{}
		settled = map[string]bool{}
		done    = make(chan struct{})
		start   = time.Now()
	)
	observe := func(ev bus.Event) {
		mu.Lock()
		defer mu.Unlock()
		n := name(ev.Subject)
		steps[n] = append(steps[n], step{time.Since(start), ev})
		final := ev.AckErr == nil && ev.DeadLetterErr == nil &&
			(ev.Decision.Action == bus.ActionAck || ev.Decision.Action == bus.ActionDeadLetter)
		if final && !settled[n] {
			settled[n] = true
			if len(settled) == len(script) {
				close(done)
			}
		}
	}
	runner, err := bus.NewRunner(ctx, cons, &outage{next: store, subject: "demo.dlq-outage"}, bus.JSON(handle),
		bus.WithName("demo.handle"),
		bus.WithMaxDeliveries(maxDeliveries),
		bus.WithClassPolicies(noPoolMapping),
		bus.WithMaxAge(maxAge),
		bus.WithLedger(records),
		bus.WithLogger(logger),
		bus.WithObserver(observe))
	if err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	stopped := make(chan error, 1)
	go func() { stopped <- runner.Run(runCtx) }()

	fmt.Fprintf(out, "nats-server (embedded, JetStream, store %s)\nstream DEMO, consumer demo-worker (ack wait %v, delivery cap %d), DLQ stream %s, retry ledger %s\n"+
		"class policy %s: delays %v, grace window %v; message-age budget %v\n\n",
		dir, bus.DefaultAckWait, maxDeliveries, store.Name(), records.Bucket(),
		noPoolMapping.Class, noPoolMapping.Delays, noPoolMapping.Within, maxAge)
	for _, s := range script {
		if _, err := js.Publish(ctx, "demo."+s.name, []byte(s.payload)); err != nil {
			return err
		}
	}
	select {
	case <-done:
	case <-ctx.Done():
		stop()
		<-stopped
		return fmt.Errorf("not every message settled within %v", runTimeout)
	}
	stop()
	if err := <-stopped; err != nil {
		return err
	}

	mu.Lock()
	defer mu.Unlock()
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MESSAGE\tDELIVERIES\tEACH DELIVERY: #n, time, action (nak = NakWithDelay)\tOUTCOME")
	for _, s := range script {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", s.name, len(steps[s.name]), timeline(steps[s.name]), outcome(steps[s.name]))
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintln(out, "\nDLQ entries (evidence headers Dlq-*):")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tSUBJECT\tCLASS\tDELIVERIES\tATTEMPTS\tBUDGET ENDED\tERROR")
	for e, err := range store.Entries(ctx) {
		if errors.Is(err, dlq.ErrNotEntry) {
			continue
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%s\t%s\n", e.Seq, e.Subject, e.Class, e.Deliveries, e.Attempts, budget(e, start), e.Error)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nconsumer: %d pending, %d waiting for an ack; run took %.1fs\n",
		info.NumPending, info.NumAckPending, time.Since(start).Seconds())
	return nil
}

// timeline renders the deliveries of one message.
func timeline(steps []step) string {
	parts := make([]string, 0, len(steps))
	for _, s := range steps {
		d := s.ev.Decision
		var what string
		switch {
		case s.ev.DeadLetterErr != nil:
			what = fmt.Sprintf("DLQ write failed; nak %v", d.Delay)
		case d.Action == bus.ActionNakWithDelay && d.Class != bus.ClassTransient:
			what = fmt.Sprintf("nak %v (%s)", d.Delay, d.Class)
		case d.Action == bus.ActionNakWithDelay:
			what = fmt.Sprintf("nak %v", d.Delay)
		case d.Action == bus.ActionDeadLetter && d.Budget.Ended != "":
			what = fmt.Sprintf("DLQ+term (%s, %s budget)", d.Class, d.Budget.Ended)
		case d.Action == bus.ActionDeadLetter:
			what = fmt.Sprintf("DLQ+term (%s)", d.Class)
		default:
			what = d.Action.String()
		}
		parts = append(parts, fmt.Sprintf("#%d +%.1fs %s", s.ev.NumDelivered, s.at.Seconds(), what))
	}
	return strings.Join(parts, " → ")
}

// budget says which retry budget a dead letter ran out of, and, for a time
// budget, when it ended, from the start of the run.
func budget(e *dlq.Entry, start time.Time) string {
	switch {
	case e.Budget == "":
		return "-"
	case e.BudgetEnd.IsZero():
		return e.Budget
	}
	return fmt.Sprintf("%s at +%.1fs", e.Budget, e.BudgetEnd.Sub(start).Seconds())
}

// outcome says where the message ended.
func outcome(steps []step) string {
	if len(steps) == 0 {
		return "never delivered"
	}
	last := steps[len(steps)-1].ev
	switch {
	case last.Decision.Action == bus.ActionAck:
		return "acked"
	case last.Decision.Action == bus.ActionDeadLetter && last.DeadLetterErr == nil:
		return "in DLQ, terminated"
	}
	return "unsettled: " + last.Decision.Action.String()
}
