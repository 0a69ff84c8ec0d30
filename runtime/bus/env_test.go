package bus_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/natstest"
)

// env is an embedded server with an ORDERS stream (orders.>) and a DLQ.
type env struct {
	t      *testing.T
	srv    *natstest.Server
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	dlq    *dlq.Store
	log    *slog.Logger
}

// lockedBuffer collects the runner's logs; they are printed if the test
// fails.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newEnv(t *testing.T) *env {
	t.Helper()
	t.Parallel()
	srv := natstest.Start(t)
	nc, js := srv.MustConnect(t)
	ctx := t.Context()
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	if err != nil {
		t.Fatal(err)
	}
	store, err := dlq.New(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("runner logs:\n%s", logs.String())
		}
	})
	return &env{
		t: t, srv: srv, nc: nc, js: js, stream: st, dlq: store,
		log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
}

func (e *env) consumer(cfg jetstream.ConsumerConfig) jetstream.Consumer {
	e.t.Helper()
	if cfg.Durable == "" {
		cfg.Durable = "worker"
	}
	if cfg.AckPolicy == jetstream.AckNonePolicy {
		cfg.AckPolicy = jetstream.AckExplicitPolicy
	}
	c, err := e.stream.CreateOrUpdateConsumer(e.t.Context(), cfg)
	if err != nil {
		e.t.Fatalf("consumer: %v", err)
	}
	return c
}

func (e *env) publish(subject, data string, hdr nats.Header) uint64 {
	e.t.Helper()
	m := nats.NewMsg(subject)
	m.Data = []byte(data)
	for k, v := range hdr {
		m.Header[k] = v
	}
	ack, err := e.js.PublishMsg(e.t.Context(), m)
	if err != nil {
		e.t.Fatalf("publish: %v", err)
	}
	return ack.Sequence
}

// timed is an Event with the time the runner finished it.
type timed struct {
	bus.Event
	At time.Time
}

// recorder collects events and lets a test wait for a condition on them.
type recorder struct {
	mu     sync.Mutex
	events []timed
	change chan struct{}
}

func newRecorder() *recorder { return &recorder{change: make(chan struct{}, 1)} }

func (r *recorder) observe(ev bus.Event) {
	r.mu.Lock()
	r.events = append(r.events, timed{ev, time.Now()})
	r.mu.Unlock()
	select {
	case r.change <- struct{}{}:
	default:
	}
}

func (r *recorder) all() []timed {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]timed(nil), r.events...)
}

// wait returns the events once cond holds on them, or fails the test after
// timeout.
func (r *recorder) wait(t *testing.T, timeout time.Duration, what string, cond func([]timed) bool) []timed {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		if evs := r.all(); cond(evs) {
			return evs
		}
		select {
		case <-r.change:
		case <-deadline.C:
			t.Fatalf("timed out after %v waiting for %s; events: %s", timeout, what, describe(r.all()))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func describe(evs []timed) string {
	var b bytes.Buffer
	for _, e := range evs {
		b.WriteString("\n  ")
		b.WriteString(e.Subject)
		b.WriteString(" #")
		b.WriteString(strconv.FormatUint(e.NumDelivered, 10))
		b.WriteString(" ")
		b.WriteString(e.Decision.Action.String())
		b.WriteString(" ")
		b.WriteString(e.Decision.Delay.String())
		b.WriteString(" ")
		b.WriteString(string(e.Decision.Class))
		if e.DeadLetterErr != nil {
			b.WriteString(" dlq-err=" + e.DeadLetterErr.Error())
		}
		if e.AckErr != nil {
			b.WriteString(" ack-err=" + e.AckErr.Error())
		}
	}
	return b.String()
}

func count(n int) func([]timed) bool {
	return func(evs []timed) bool { return len(evs) >= n }
}

// start runs a runner of h over cons until the test ends.
func (e *env) start(cons jetstream.Consumer, h bus.Handler, opts ...bus.Option) (*bus.Runner, *recorder) {
	e.t.Helper()
	rec := newRecorder()
	all := append([]bus.Option{bus.WithLogger(e.log), bus.WithObserver(rec.observe), bus.WithName("test")}, opts...)
	r, err := bus.NewRunner(e.t.Context(), cons, e.dlq, h, all...)
	if err != nil {
		e.t.Fatalf("NewRunner: %v", err)
	}
	e.run(r)
	return r, rec
}

// run runs r until the test ends, and then checks that Run returns in
// time and without an error.
func (e *env) run(r *bus.Runner) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	e.t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, bus.ErrConsumerGone) {
				e.t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			e.t.Error("Run did not return within 10s of cancel")
		}
	})
}

func (e *env) entries() []*dlq.Entry {
	e.t.Helper()
	var out []*dlq.Entry
	for en, err := range e.dlq.Entries(e.t.Context()) {
		if err != nil {
			e.t.Fatalf("DLQ entries: %v", err)
		}
		out = append(out, en)
	}
	return out
}

func (e *env) info(cons jetstream.Consumer) *jetstream.ConsumerInfo {
	e.t.Helper()
	info, err := cons.Info(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	return info
}

// deliveries records the time of every handler call by delivery count.
type deliveries struct {
	mu sync.Mutex
	at map[uint64]time.Time
	n  int
}

func (d *deliveries) mark(m bus.Msg) uint64 {
	md, _ := m.Metadata()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.at == nil {
		d.at = map[uint64]time.Time{}
	}
	d.at[md.NumDelivered] = time.Now()
	d.n++
	return md.NumDelivered
}

func (d *deliveries) gap(from, to uint64) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.at[to].Sub(d.at[from])
}

func (d *deliveries) calls() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// advisories is a stream that captures the server's MSG_TERMINATED and
// MAX_DELIVERIES advisories for the ORDERS stream. Tests read it to learn
// what the server did to a message (a Term and an Ack look the same to
// the consumer's counters), not what the runner reports.
type advisories struct {
	t  *testing.T
	st jetstream.Stream
}

const (
	terminatedPrefix    = "$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED"
	maxDeliveriesPrefix = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES"
)

func (e *env) captureAdvisories() *advisories {
	e.t.Helper()
	st, err := e.js.CreateStream(e.t.Context(), jetstream.StreamConfig{
		Name:     "ADVISORIES",
		Subjects: []string{terminatedPrefix + ".ORDERS.>", maxDeliveriesPrefix + ".ORDERS.>"},
	})
	if err != nil {
		e.t.Fatalf("advisory stream: %v", err)
	}
	return &advisories{t: e.t, st: st}
}

// terminated returns the stream sequences the server reports terminated.
func (a *advisories) terminated() []uint64 {
	a.t.Helper()
	msgs, err := streamMsgs(a.t.Context(), a.st)
	if err != nil {
		a.t.Fatal(err)
	}
	var out []uint64
	for _, m := range msgs {
		seq, ok, err := terminatedSeq(m)
		if err != nil {
			a.t.Fatal(err)
		}
		if ok {
			out = append(out, seq)
		}
	}
	return out
}

// terminatedSeq reads a MSG_TERMINATED advisory: the stream sequence of
// the message the server terminated. ok is false for other advisories.
func terminatedSeq(m *jetstream.RawStreamMsg) (seq uint64, ok bool, err error) {
	seq, _, ok, err = terminatedAt(m)
	return seq, ok, err
}

// terminatedAt reads a MSG_TERMINATED advisory: the stream sequence of the
// message the server terminated, and when the server got the Term (the
// advisory's timestamp). ok is false for other advisories.
func terminatedAt(m *jetstream.RawStreamMsg) (seq uint64, at time.Time, ok bool, err error) {
	if !strings.HasPrefix(m.Subject, terminatedPrefix+".") {
		return 0, time.Time{}, false, nil
	}
	var adv struct {
		StreamSeq uint64    `json:"stream_seq"`
		Time      time.Time `json:"timestamp"`
	}
	if err := json.Unmarshal(m.Data, &adv); err != nil {
		return 0, time.Time{}, false, fmt.Errorf("advisory %d: %w", m.Sequence, err)
	}
	return adv.StreamSeq, adv.Time, true, nil
}

// streamMsgs reads every message a stream holds, by sequence.
func streamMsgs(ctx context.Context, st jetstream.Stream) ([]*jetstream.RawStreamMsg, error) {
	info, err := st.Info(ctx)
	if err != nil {
		return nil, err
	}
	var out []*jetstream.RawStreamMsg
	for seq := info.State.FirstSeq; seq > 0 && seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue // deleted
		}
		if err != nil {
			return nil, fmt.Errorf("%s message %d: %w", info.Config.Name, seq, err)
		}
		out = append(out, m)
	}
	return out, nil
}
