package bus_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/retry"
)

// testConfig returns a Config with a deterministic backoff: 1s doubling to
// 30s, jitter fixed at 100ms, 5 attempts; a cap of 10 deliveries.
func testConfig(t *testing.T) bus.Config {
	t.Helper()
	p, err := retry.NewPolicy(retry.WithMaxAttempts(5),
		retry.WithJitterSource(func(time.Duration) time.Duration { return 100 * time.Millisecond }))
	if err != nil {
		t.Fatal(err)
	}
	cfg := bus.DefaultConfig()
	cfg.MaxDeliveries = 10
	cfg.Backoff = p
	return cfg
}

func TestDecide(t *testing.T) {
	perm := errors.New("no such customer")
	cases := []struct {
		name  string
		in    bus.Input
		want  bus.Decision
		cfgFn func(*bus.Config)
	}{
		{name: "before handler: handle",
			in:   bus.Input{NumDelivered: 1},
			want: bus.Decision{Action: bus.ActionHandle}},
		{name: "before handler: on the cap still handle",
			in:   bus.Input{NumDelivered: 10},
			want: bus.Decision{Action: bus.ActionHandle}},
		{name: "before handler: past the cap dead-letter without running",
			in:   bus.Input{NumDelivered: 11},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassMaxDeliveries, Reason: "delivered 11 times, over the cap of 10"}},
		{name: "before handler: stopping releases",
			in:   bus.Input{NumDelivered: 9, Stopping: true},
			want: bus.Decision{Action: bus.ActionNak, Class: bus.ClassShutdown, Reason: "runner stopping: released unprocessed"}},
		{name: "before handler: stopping on the cap dead-letters (a release would not come back)",
			in:   bus.Input{NumDelivered: 10, Stopping: true},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassShutdown, Reason: "runner stopping on the last delivery (10 of 10)"}},
		{name: "before handler: draining on the cap handles it (no drain time lost, no healthy message dead-lettered)",
			in:   bus.Input{NumDelivered: 10, Stopping: true, Draining: true},
			want: bus.Decision{Action: bus.ActionHandle}},
		{name: "before handler: draining below the cap still releases",
			in:   bus.Input{NumDelivered: 9, Stopping: true, Draining: true},
			want: bus.Decision{Action: bus.ActionNak, Class: bus.ClassShutdown, Reason: "runner stopping: released unprocessed"}},
		{name: "before handler: stopping past the cap dead-letters as any delivery past the cap",
			in:   bus.Input{NumDelivered: 11, Stopping: true},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassMaxDeliveries, Reason: "delivered 11 times, over the cap of 10"}},
		{name: "success acks",
			in:   bus.Input{NumDelivered: 1, Ran: true},
			want: bus.Decision{Action: bus.ActionAck}},
		{name: "success on the last delivery acks",
			in:   bus.Input{NumDelivered: 10, Ran: true},
			want: bus.Decision{Action: bus.ActionAck}},
		{name: "delay > 0: NakWithDelay(delay)",
			in:   bus.Input{NumDelivered: 1, Ran: true, Err: fmt.Errorf("db: %w", retry.RetryAfter(io.EOF, 3*time.Second))},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 3 * time.Second, Requested: 3 * time.Second, RetryDelay: 3 * time.Second, Class: bus.ClassTransient, Reason: "transient error"}},
		{name: "delay == 0: the policy's delay for the attempt, not a bare Nak (it would loop)",
			in:   bus.Input{NumDelivered: 3, Ran: true, Err: retry.RetryAfter(io.EOF, 0)},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 4100 * time.Millisecond, Requested: 4100 * time.Millisecond, Class: bus.ClassTransient, Reason: "transient error asked for a retry at once; policy delay instead of a bare Nak"}},
		{name: "delay over the max nak delay is capped",
			in:   bus.Input{NumDelivered: 1, Ran: true, Err: retry.RetryAfter(io.EOF, 24*time.Hour)},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 10 * time.Minute, Requested: 10 * time.Minute, RetryDelay: 24 * time.Hour, Class: bus.ClassTransient, Reason: "transient error"}},
		{name: "transient without delay: policy delay for attempt NumDelivered",
			in:   bus.Input{NumDelivered: 3, Ran: true, Err: retry.Transient(io.EOF)},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 4100 * time.Millisecond, Requested: 4100 * time.Millisecond, Class: bus.ClassTransient, Reason: "transient error, policy delay"}},
		{name: "transient without delay: policy exhausted",
			in:   bus.Input{NumDelivered: 5, Ran: true, Err: retry.Transient(io.EOF)},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassRetriesExhausted, Reason: "backoff policy exhausted after 5 attempts"}},
		{name: "transient on the last delivery: dead-letter",
			in:   bus.Input{NumDelivered: 10, Ran: true, Err: retry.RetryAfter(io.EOF, time.Second)},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassLastDelivery, RetryDelay: time.Second, Reason: "transient error on the last delivery (10 of 10)"}},
		{name: "transient past the last delivery: dead-letter",
			in:   bus.Input{NumDelivered: 12, Ran: true, Err: retry.Transient(io.EOF)},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassLastDelivery, Reason: "transient error on the last delivery (12 of 10)"}},
		{name: "unmarked: dead-letter",
			in:   bus.Input{NumDelivered: 1, Ran: true, Err: perm},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassPermanent, Reason: "error without a retry marker, permanent"}},
		{name: "marked permanent over a carrier: dead-letter",
			in:   bus.Input{NumDelivered: 1, Ran: true, Err: retry.Permanent(retry.RetryAfter(perm, time.Second))},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassPermanent, Reason: "permanent error"}},
		{name: "panic: dead-letter even if its value carries a delay",
			in:   bus.Input{NumDelivered: 1, Ran: true, Err: &bus.PanicError{Value: retry.RetryAfter(io.EOF, time.Second)}},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassPermanent, Reason: "permanent error"}},
		{name: "undecodable before the threshold: NakWithDelay(5s)",
			in:   bus.Input{NumDelivered: 2, Ran: true, DecodeErr: bus.Undecodable(io.EOF)},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 5 * time.Second, Requested: 5 * time.Second, Class: bus.ClassUndecodable, Reason: "payload undecodable"}},
		{name: "undecodable on the threshold: dead-letter",
			in:   bus.Input{NumDelivered: 3, Ran: true, DecodeErr: bus.Undecodable(io.EOF)},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassUndecodable, Reason: "payload undecodable on delivery 3"}},
		{name: "undecodable on a cap below the threshold: dead-letter",
			in:    bus.Input{NumDelivered: 2, Ran: true, DecodeErr: bus.Undecodable(io.EOF)},
			cfgFn: func(c *bus.Config) { c.MaxDeliveries = 2 },
			want:  bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassUndecodable, Reason: "payload undecodable on delivery 2"}},
		{name: "handler interrupted by shutdown: release",
			in:   bus.Input{NumDelivered: 1, Ran: true, Stopping: true, Err: fmt.Errorf("query: %w", context.Canceled)},
			want: bus.Decision{Action: bus.ActionNak, Class: bus.ClassShutdown, Reason: "handler interrupted by shutdown"}},
		{name: "handler interrupted by shutdown on the cap: dead-letter",
			in:   bus.Input{NumDelivered: 10, Ran: true, Stopping: true, Err: fmt.Errorf("query: %w", context.Canceled)},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassShutdown, Reason: "handler interrupted by shutdown on the last delivery (10 of 10)"}},
		{name: "other error while stopping: classified as usual",
			in:   bus.Input{NumDelivered: 1, Ran: true, Stopping: true, Err: perm},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassPermanent, Reason: "error without a retry marker, permanent"}},
		{name: "canceled while not stopping: an ordinary permanent error",
			in:   bus.Input{NumDelivered: 1, Ran: true, Err: context.Canceled},
			want: bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassPermanent, Reason: "error without a retry marker, permanent"}},
		{name: "DLQ write failed: NakWithDelay(5s), never Term",
			in:   bus.Input{NumDelivered: 1, Ran: true, Err: perm, DeadLetterErr: io.ErrClosedPipe},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 5 * time.Second, Requested: 5 * time.Second, Class: bus.ClassDeadLetterFailed, Reason: "dead-letter write failed"}},
		{name: "DLQ write failed past the cap: still NakWithDelay",
			in:   bus.Input{NumDelivered: 50, DeadLetterErr: io.ErrClosedPipe},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 5 * time.Second, Requested: 5 * time.Second, Class: bus.ClassDeadLetterFailed, Reason: "dead-letter write failed"}},
		{name: "BackOff stretch is subtracted",
			in:    bus.Input{NumDelivered: 2, Ran: true, Err: retry.RetryAfter(io.EOF, 3*time.Second)},
			cfgFn: func(c *bus.Config) { c.ConsumerBackOff = []time.Duration{time.Second, 2 * time.Second} },
			want:  bus.Decision{Action: bus.ActionNakWithDelay, Delay: 2 * time.Second, Requested: 3 * time.Second, RetryDelay: 3 * time.Second, Class: bus.ClassTransient, Reason: "transient error"}},
		{name: "BackOff stretch applies to the DLQ retry delay too",
			in: bus.Input{NumDelivered: 3, DeadLetterErr: io.ErrClosedPipe},
			cfgFn: func(c *bus.Config) {
				c.ConsumerBackOff = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
			},
			want: bus.Decision{Action: bus.ActionNakWithDelay, Delay: 2 * time.Second, Requested: 5 * time.Second, Class: bus.ClassDeadLetterFailed, Reason: "dead-letter write failed"}},
		{name: "BackOff with zero delay: the policy's delay, compensated",
			in:    bus.Input{NumDelivered: 2, Ran: true, Err: retry.RetryAfter(io.EOF, 0)},
			cfgFn: func(c *bus.Config) { c.ConsumerBackOff = []time.Duration{time.Second, 2 * time.Second} },
			want:  bus.Decision{Action: bus.ActionNakWithDelay, Delay: 1100 * time.Millisecond, Requested: 2100 * time.Millisecond, Class: bus.ClassTransient, Reason: "transient error asked for a retry at once; policy delay instead of a bare Nak"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			if tc.cfgFn != nil {
				tc.cfgFn(&cfg)
			}
			if got := noBudget(bus.Decide(tc.in, &cfg)); got != tc.want {
				t.Fatalf("Decide =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// noBudget returns d without its Budget, for the cases about the action.
func noBudget(d bus.Decision) bus.Decision {
	d.Budget = bus.Budget{}
	return d
}

func TestDecideNeverTermsOrBareNaksAFailedDeadLetter(t *testing.T) {
	// Whatever else the input says, a failed DLQ write is redelivered with a
	// positive delay.
	cfg := testConfig(t)
	errs := []error{nil, io.EOF, retry.RetryAfter(io.EOF, 0), retry.Transient(io.EOF), bus.Undecodable(io.EOF)}
	for n := uint64(0); n <= 12; n++ {
		for _, err := range errs {
			for _, stopping := range []bool{false, true} {
				d := bus.Decide(bus.Input{NumDelivered: n, Ran: true, Stopping: stopping, Err: err, DeadLetterErr: io.ErrClosedPipe}, &cfg)
				if d.Action != bus.ActionNakWithDelay || d.Delay <= 0 {
					t.Fatalf("n=%d err=%v stopping=%v: %+v", n, err, stopping, d)
				}
			}
		}
	}
}

func TestCompensate(t *testing.T) {
	b := []time.Duration{100 * time.Millisecond, 1100 * time.Millisecond, 3100 * time.Millisecond}
	cases := []struct {
		d    time.Duration
		n    uint64
		back []time.Duration
		want time.Duration
	}{
		{2 * time.Second, 1, b, 2 * time.Second},        // delivery 1: no stretch
		{2 * time.Second, 2, b, time.Second},            // stretch 1s
		{4 * time.Second, 3, b, time.Second},            // stretch 3s
		{4 * time.Second, 9, b, time.Second},            // past the list: last step
		{500 * time.Millisecond, 2, b, bus.MinNakDelay}, // stretch >= d: the floor, never 0
		{0, 2, b, 0},            // a Nak stays a Nak
		{-time.Second, 2, b, 0}, // negative is 0
		{2 * time.Second, 2, nil, 2 * time.Second},                                       // no BackOff
		{2 * time.Second, 0, b, 2 * time.Second},                                         // no delivery count
		{2 * time.Second, 2, []time.Duration{time.Second, time.Second}, 2 * time.Second}, // flat BackOff
	}
	for _, c := range cases {
		if got := bus.Compensate(c.d, c.n, c.back); got != c.want {
			t.Errorf("Compensate(%v, %d, %v) = %v, want %v", c.d, c.n, c.back, got, c.want)
		}
	}
}

func TestActionString(t *testing.T) {
	want := map[bus.Action]string{
		bus.ActionHandle: "handle", bus.ActionAck: "ack", bus.ActionNak: "nak",
		bus.ActionNakWithDelay: "nak-delay", bus.ActionDeadLetter: "dead-letter", bus.Action(0): "Action(0)",
	}
	for a, s := range want {
		if a.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(a), a.String(), s)
		}
	}
}

func TestDecodeHelpers(t *testing.T) {
	type order struct{ ID int }
	var got order
	h := bus.JSON(func(_ context.Context, v order, _ bus.Msg) error { got = v; return nil })
	if err := h(context.Background(), fakeData(`{"ID":7}`)); err != nil || got.ID != 7 {
		t.Fatalf("JSON handler: %v, %+v", err, got)
	}
	err := h(context.Background(), fakeData(`{`))
	var de *bus.DecodeError
	if !errors.As(err, &de) || !errors.Is(err, bus.ErrUndecodable) {
		t.Fatalf("JSON handler on a bad payload: %v", err)
	}
	if !errors.Is(bus.Undecodable(nil), bus.ErrUndecodable) {
		t.Fatal("Undecodable(nil) does not wrap ErrUndecodable")
	}
	pe := &bus.PanicError{Value: io.EOF}
	if !errors.Is(pe, io.EOF) || pe.Error() != "bus: handler panic: EOF" {
		t.Fatalf("PanicError: %v", pe)
	}
}

// fakeData is a bus.Msg with only a payload.
type fakeData string

func (f fakeData) Subject() string                           { return "test" }
func (f fakeData) Data() []byte                              { return []byte(f) }
func (f fakeData) Headers() nats.Header                      { return nil }
func (f fakeData) Metadata() (*jetstream.MsgMetadata, error) { return &jetstream.MsgMetadata{}, nil }

func TestDecideWithAZeroConfigUsesTheDefaults(t *testing.T) {
	var zero bus.Config
	d := bus.Decide(bus.Input{NumDelivered: 1, Ran: true, Err: io.EOF, DeadLetterErr: io.ErrClosedPipe}, &zero)
	if d.Action != bus.ActionNakWithDelay || d.Delay != bus.DefaultDeadLetterRetryDelay {
		t.Fatalf("failed DLQ write with a zero Config: %+v", d)
	}
	d = bus.Decide(bus.Input{NumDelivered: 1, Ran: true, Err: retry.Transient(io.EOF)}, &zero)
	if d.Action != bus.ActionNakWithDelay || d.Delay < time.Second || d.Delay >= 1500*time.Millisecond {
		t.Fatalf("policy delay with a zero Config: %+v", d)
	}
	if d := bus.Decide(bus.Input{NumDelivered: 99, Ran: true, Err: retry.RetryAfter(io.EOF, time.Second)}, &zero); d.Action != bus.ActionNakWithDelay {
		t.Fatalf("delivery 99 of the default 100: %+v", d)
	}
	if d := bus.Decide(bus.Input{NumDelivered: 100, Ran: true, Err: retry.RetryAfter(io.EOF, time.Second)}, &zero); d.Action != bus.ActionDeadLetter {
		t.Fatalf("delivery 100 of the default 100: %+v", d)
	}
}

// TestDecideUnclassified: an error without a retry marker is retried with
// the policy's delays when WellKnownTransient takes it, dead-lettered
// otherwise, and always dead-lettered under UnclassifiedPermanent; a mark
// wins over what the error wraps.
func TestDecideUnclassified(t *testing.T) {
	retried := bus.Decision{Action: bus.ActionNakWithDelay, Delay: 4100 * time.Millisecond, Requested: 4100 * time.Millisecond,
		Class: bus.ClassTransient, Reason: "error without a retry marker, taken as transient"}
	unmarked := bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassPermanent, Reason: "error without a retry marker, permanent"}
	marked := bus.Decision{Action: bus.ActionDeadLetter, Class: bus.ClassPermanent, Reason: "permanent error"}
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	cases := []struct {
		name         string
		err          error
		want, strict bus.Decision
	}{
		{"the handler's own deadline", fmt.Errorf("inventory: %w", context.DeadlineExceeded), retried, unmarked},
		{"a net timeout", &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, retried, unmarked},
		{"connection refused", fmt.Errorf("billing: %w", dial), retried, unmarked},
		{"connection reset", &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}, retried, unmarked},
		{"unexpected EOF", fmt.Errorf("decode response: %w", io.ErrUnexpectedEOF), retried, unmarked},
		{"NATS request timeout", fmt.Errorf("pricing: %w", nats.ErrTimeout), retried, unmarked},
		{"NATS no responders", nats.ErrNoResponders, retried, unmarked},
		{"JetStream stream not answering", jetstream.ErrNoStreamResponse, retried, unmarked},
		{"a plain error", errors.New("no such customer"), unmarked, unmarked},
		{"no such host", &net.DNSError{Err: "no such host", Name: "inventry.svc", IsNotFound: true}, unmarked, unmarked},
		{"a bare EOF (an empty input)", fmt.Errorf("decode: %w", io.EOF), unmarked, unmarked},
		{"canceled (not by shutdown)", context.Canceled, unmarked, unmarked},
		{"marked permanent over a timeout", retry.Permanent(fmt.Errorf("quota: %w", context.DeadlineExceeded)), marked, marked},
	}
	for name, err := range goneErrors() {
		cases = append(cases, struct {
			name         string
			err          error
			want, strict bus.Decision
		}{name, err, retried, unmarked})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := bus.Input{NumDelivered: 3, Ran: true, Err: tc.err}
			cfg := testConfig(t)
			if got := noBudget(bus.Decide(in, &cfg)); got != tc.want {
				t.Errorf("default:\n%+v\nwant\n%+v", got, tc.want)
			}
			cfg.Unclassified = nil // the zero Config's default is the same
			if got := noBudget(bus.Decide(in, &cfg)); got != tc.want {
				t.Errorf("nil Unclassified:\n%+v\nwant\n%+v", got, tc.want)
			}
			cfg.Unclassified = bus.UnclassifiedPermanent
			if got := noBudget(bus.Decide(in, &cfg)); got != tc.strict {
				t.Errorf("UnclassifiedPermanent:\n%+v\nwant\n%+v", got, tc.strict)
			}
		})
	}
}
