package dlq_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/natstest"
)

func setup(t *testing.T, opts ...dlq.Option) (jetstream.JetStream, *dlq.Store) {
	t.Helper()
	t.Parallel()
	srv := natstest.Start(t)
	_, js := srv.MustConnect(t)
	st, err := dlq.New(t.Context(), js, opts...)
	if err != nil {
		t.Fatalf("dlq.New: %v", err)
	}
	return js, st
}

func sample(seq uint64) *dlq.Entry {
	stored := time.Date(2026, 11, 21, 10, 0, 0, int(seq), time.UTC)
	return &dlq.Entry{
		Subject:      "orders.created",
		Stream:       "ORDERS",
		Consumer:     "billing",
		StreamSeq:    seq,
		ConsumerSeq:  seq + 10,
		Stored:       stored,
		Deliveries:   4,
		FirstFailure: stored.Add(time.Second),
		LastFailure:  stored.Add(time.Minute),
		Class:        "permanent",
		RetryDelay:   1500 * time.Millisecond,
		Error:        "charge: card declined\nline two \\ with a backslash",
		ErrorTypes:   []string{"*fmt.wrapError", "*billing.DeclinedError"},
		Handler:      "billing.Charge",
		Header:       nats.Header{"Trace-Id": {"abc"}, "Multi": {"1", "2"}, jetstream.MsgIDHeader: {"orig-id"}},
		Data:         []byte(`{"order":42}`),
	}
}

func entries(t *testing.T, st *dlq.Store) []*dlq.Entry {
	t.Helper()
	var out []*dlq.Entry
	for e, err := range st.Entries(t.Context()) {
		if err != nil {
			t.Fatalf("Entries: %v", err)
		}
		out = append(out, e)
	}
	return out
}

func TestWriteKeepsEvidence(t *testing.T) {
	_, st := setup(t)
	want := sample(7)
	if err := st.Write(t.Context(), want); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := entries(t, st)
	if len(got) != 1 {
		t.Fatalf("DLQ holds %d entries, want 1", len(got))
	}
	e := got[0]
	if e.Seq != 1 || e.Written.IsZero() {
		t.Errorf("Seq, Written = %d, %v", e.Seq, e.Written)
	}
	e.Seq, e.Written = 0, time.Time{}
	if !equalEntry(e, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", e, want)
	}
	byGet, err := st.Get(t.Context(), 1)
	if err != nil || !bytes.Equal(byGet.Data, want.Data) || byGet.Error != want.Error {
		t.Errorf("Get = %+v, %v", byGet, err)
	}
	if got, want := st.Subject(want), "dlq.ORDERS.billing.7."+strconv.FormatInt(want.Stored.UnixNano(), 10); got != want {
		t.Errorf("Subject = %q, want %q", got, want)
	}
}

func equalEntry(a, b *dlq.Entry) bool {
	return a.Subject == b.Subject && a.Stream == b.Stream && a.Consumer == b.Consumer &&
		a.StreamSeq == b.StreamSeq && a.ConsumerSeq == b.ConsumerSeq && a.Stored.Equal(b.Stored) &&
		a.Deliveries == b.Deliveries && a.FirstFailure.Equal(b.FirstFailure) && a.LastFailure.Equal(b.LastFailure) &&
		a.Class == b.Class && a.RetryDelay == b.RetryDelay && a.Error == b.Error &&
		slices.Equal(a.ErrorTypes, b.ErrorTypes) && a.Handler == b.Handler &&
		bytes.Equal(a.Data, b.Data) && a.OriginalSize == b.OriginalSize && equalHeader(a.Header, b.Header)
}

func equalHeader(a, b nats.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func count(t *testing.T, st *dlq.Store) int { return len(entries(t, st)) }

func TestWriteIsIdempotent(t *testing.T) {
	// A short duplicate window: the second write after it has passed is
	// still refused, by the expected last subject sequence.
	_, st := setup(t, dlq.WithDuplicates(200*time.Millisecond))
	e := sample(3)
	for range 2 { // within the window: Nats-Msg-Id
		if err := st.Write(t.Context(), e); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	time.Sleep(400 * time.Millisecond)
	if err := st.Write(t.Context(), e); err != nil { // past the window
		t.Fatalf("Write after the duplicate window: %v", err)
	}
	if n := count(t, st); n != 1 {
		t.Fatalf("DLQ holds %d entries after 3 writes of one entry, want 1", n)
	}
	// The same stream sequence in a recreated origin stream (another store
	// time) is another message and gets its own entry.
	other := sample(3)
	other.Stored = other.Stored.Add(time.Hour)
	if err := st.Write(t.Context(), other); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if n := count(t, st); n != 2 {
		t.Fatalf("DLQ holds %d entries, want 2", n)
	}
}

func TestWriteFailureIsReported(t *testing.T) {
	js, st := setup(t)
	if err := js.DeleteStream(t.Context(), st.Name()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	if err := st.Write(ctx, sample(1)); err == nil {
		t.Fatal("Write to a deleted DLQ stream returned nil")
	}
}

func TestPayloadBound(t *testing.T) {
	_, st := setup(t, dlq.WithMaxPayload(10))
	e := sample(1)
	e.Data = []byte("0123456789abcdef")
	if err := st.Write(t.Context(), e); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := entries(t, st)[0]
	if string(got.Data) != "0123456789" || got.OriginalSize != 16 || !got.Truncated() {
		t.Fatalf("stored %q, original size %d", got.Data, got.OriginalSize)
	}
	if e.OriginalSize != 0 || len(e.Data) != 16 {
		t.Fatal("Write modified the caller's entry")
	}
	if _, err := st.Replay(t.Context()); !errors.Is(err, dlq.ErrTruncated) {
		t.Fatalf("Replay of a truncated entry: %v, want ErrTruncated", err)
	}
}

func TestPayloadFitsServerMaxPayload(t *testing.T) {
	js, st := setup(t)
	max := int(js.Conn().MaxPayload())
	e := sample(1)
	e.Data = bytes.Repeat([]byte("x"), max) // as large as the server allows
	if err := st.Write(t.Context(), e); err != nil {
		t.Fatalf("Write of a max-size payload: %v", err)
	}
	got := entries(t, st)[0]
	if got.OriginalSize != max || len(got.Data) >= max || len(got.Data) < max/2 {
		t.Fatalf("kept %d of %d bytes (original size %d)", len(got.Data), max, got.OriginalSize)
	}
	// Headers that leave no room: the entry is stored reduced, evidence
	// only, rather than refused on every redelivery.
	huge := sample(2)
	huge.Header = nats.Header{"Big": {strings.Repeat("h", max)}}
	if err := st.Write(t.Context(), huge); err != nil {
		t.Fatalf("Write with headers over max payload: %v, want a reduced entry", err)
	}
	got = entries(t, st)[1]
	if !got.Reduced || got.Header.Get("Big") != "" || len(got.Data) != 0 || got.StreamSeq != huge.StreamSeq || got.Error != huge.Error {
		t.Fatalf("reduced entry: %+v", got)
	}
	if huge.Header.Get("Big") == "" || huge.Reduced {
		t.Fatal("Write modified the caller's entry")
	}
	if _, err := st.Replay(t.Context(), dlq.ReplaySeqs(got.Seq)); !errors.Is(err, dlq.ErrTruncated) {
		t.Fatalf("Replay of a reduced entry: %v, want ErrTruncated", err)
	}
}

func TestRedactor(t *testing.T) {
	fail := errors.New("cannot redact")
	_, st := setup(t, dlq.WithRedactor(func(e *dlq.Entry) error {
		if e.StreamSeq == 99 {
			return fail
		}
		e.Data = []byte("[redacted]")
		delete(e.Header, "Trace-Id")
		e.Error = strings.ReplaceAll(e.Error, "card", "****")
		return nil
	}))
	e := sample(1)
	if err := st.Write(t.Context(), e); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := entries(t, st)[0]
	if string(got.Data) != "[redacted]" || got.Header.Get("Trace-Id") != "" || strings.Contains(got.Error, "card") {
		t.Fatalf("stored entry not redacted: %q %v %q", got.Data, got.Header, got.Error)
	}
	if e.Header.Get("Trace-Id") != "abc" || string(e.Data) != `{"order":42}` {
		t.Fatal("the redactor changed the caller's entry")
	}
	// A redactor that fails: the evidence alone is stored, flagged, with
	// neither payload nor headers nor error text.
	if err := st.Write(t.Context(), sample(99)); err != nil {
		t.Fatalf("Write with failing redactor: %v", err)
	}
	all := entries(t, st)
	if len(all) != 2 {
		t.Fatalf("DLQ holds %d entries, want 2", len(all))
	}
	min, want := all[1], sample(99)
	if !min.Reduced || min.ReducedWhy != dlq.ReducedRedactor || len(min.Data) != 0 || len(min.Header) != 0 ||
		strings.Contains(min.Error, "card") || len(min.ErrorTypes) != 0 {
		t.Fatalf("minimal entry: %+v", min)
	}
	if min.ID() != want.ID() || min.Subject != want.Subject || min.Deliveries != want.Deliveries ||
		min.Class != want.Class || min.Handler != want.Handler || !min.LastFailure.Equal(want.LastFailure) {
		t.Fatalf("minimal entry lost evidence: %+v", min)
	}
	if err := st.Write(t.Context(), sample(99)); err != nil || count(t, st) != 2 {
		t.Fatalf("a second write of the minimal entry: %v, %d entries; want it stored once", err, count(t, st))
	}
	if _, err := st.Replay(t.Context(), dlq.ReplaySeqs(min.Seq)); !errors.Is(err, dlq.ErrTruncated) {
		t.Fatalf("Replay of a minimal entry: %v, want ErrTruncated", err)
	}
}

// TestEntryOverMaxMsgSizeIsStoredMinimal: a DLQ stream whose MaxMsgSize
// (1 KiB) even the reduced entry exceeds (it keeps 4 KiB of error text):
// the entry is stored minimal, its error text cut, flagged, as the stream
// on the server holds it; a smaller one is stored in full.
func TestEntryOverMaxMsgSizeIsStoredMinimal(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t)
	_, js := srv.MustConnect(t)
	if _, err := js.CreateStream(t.Context(), jetstream.StreamConfig{Name: "DLQ", Subjects: []string{"dlq.>"}, MaxMsgSize: 1024}); err != nil {
		t.Fatal(err)
	}
	st, err := dlq.New(t.Context(), js)
	if err != nil {
		t.Fatal(err)
	}
	big := sample(1)
	big.Error = strings.Repeat("upstream said: no ", 300)
	if err := st.Write(t.Context(), big); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := entries(t, st)
	if len(got) != 1 {
		t.Fatalf("DLQ holds %d entries, want 1", len(got))
	}
	min := got[0]
	if !min.Reduced || min.ReducedWhy != dlq.ReducedTooLarge || len(min.Data) != 0 || len(min.Header) != 0 ||
		len(min.Error) > 300 || !strings.HasPrefix(min.Error, "upstream said: no") || min.ID() != big.ID() {
		t.Fatalf("entry: reduced %v (%s), %d bytes of data, %d of error text", min.Reduced, min.ReducedWhy, len(min.Data), len(min.Error))
	}
}

func TestReplayRepublishes(t *testing.T) {
	js, st := setup(t)
	ctx := t.Context()
	orders, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := orders.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: "billing", AckPolicy: jetstream.AckExplicitPolicy}); err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i <= 3; i++ {
		e := sample(i)
		e.Subject = "orders.n" + strconv.FormatUint(i, 10)
		e.Header.Set(jetstream.ExpectedLastSeqHeader, "12345") // would make a replay fail
		if err := st.Write(ctx, e); err != nil {
			t.Fatal(err)
		}
	}

	done, err := st.Replay(ctx, dlq.ReplaySeqs(2))
	if err != nil || len(done) != 1 || done[0].Entry.Seq != 2 || done[0].Ack.Stream != "ORDERS" || done[0].Ack.Duplicate {
		t.Fatalf("Replay(2) = %+v, %v", done, err)
	}
	m, err := orders.GetMsg(ctx, done[0].Ack.Sequence)
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "orders.n2" || string(m.Data) != `{"order":42}` ||
		m.Header.Get("Trace-Id") != "abc" || !slices.Equal(m.Header.Values("Multi"), []string{"1", "2"}) ||
		m.Header.Get(dlq.HeaderReplayOf) != "2" || m.Header.Get(jetstream.ExpectedLastSeqHeader) != "" ||
		m.Header.Get(jetstream.MsgIDHeader) != "dlq-replay.DLQ.2" {
		t.Fatalf("replayed message %q %q %v", m.Subject, m.Data, m.Header)
	}

	again, err := st.Replay(ctx, dlq.ReplaySeqs(2))
	if err != nil || len(again) != 1 || !again[0].Ack.Duplicate {
		t.Fatalf("second Replay(2) = %+v, %v; want a duplicate ack", again, err)
	}

	done, err = st.Replay(ctx, dlq.ReplayFilter(func(e *dlq.Entry) bool { return e.StreamSeq == 3 }), dlq.ReplayDelete())
	if err != nil || len(done) != 1 || done[0].Entry.StreamSeq != 3 {
		t.Fatalf("Replay(filter, delete) = %+v, %v", done, err)
	}
	left := entries(t, st)
	if len(left) != 2 || left[0].Seq != 1 || left[1].Seq != 2 {
		t.Fatalf("after ReplayDelete the DLQ holds %d entries", len(left))
	}
	info, err := orders.Info(ctx)
	if err != nil || info.State.Msgs != 2 {
		t.Fatalf("ORDERS holds %v messages, want 2 (%v)", info.State.Msgs, err)
	}
	if _, err := st.Replay(ctx, dlq.ReplaySeqs()); !errors.Is(err, dlq.ErrInvalidOption) {
		t.Fatalf("ReplaySeqs(): %v", err)
	}
	if _, err := st.Replay(ctx, dlq.ReplayFilter(nil)); !errors.Is(err, dlq.ErrInvalidOption) {
		t.Fatalf("ReplayFilter(nil): %v", err)
	}
}

// TestReplayRefusesAMissingConsumer: entries failed by consumer billing
// are not replayed while billing does not exist, nor to a consumer whose
// filter does not take their subject: nothing reaches ORDERS and the DLQ
// keeps every entry, as the server tells. ReplayTo a consumer that takes
// them replays them, marked for it.
func TestReplayRefusesAMissingConsumer(t *testing.T) {
	js, st := setup(t)
	ctx := t.Context()
	orders, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []jetstream.ConsumerConfig{
		{Durable: "billing-v2", FilterSubject: "orders.>"},
		{Durable: "refunds", FilterSubjects: []string{"orders.refund", "orders.*.refund"}},
	} {
		c.AckPolicy = jetstream.AckExplicitPolicy
		if _, err := orders.CreateConsumer(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for i := uint64(1); i <= 2; i++ {
		e := sample(i)
		e.Subject = "orders.n" + strconv.FormatUint(i, 10)
		if err := st.Write(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	msgs := func() uint64 {
		info, err := orders.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Msgs
	}
	for name, opts := range map[string][]dlq.ReplayOption{
		"to the consumer that failed them, deleted": {dlq.ReplayDelete()},
		"to a consumer that does not exist":         {dlq.ReplayTo("billing-v3"), dlq.ReplayDelete()},
		"to a consumer that does not take them":     {dlq.ReplayTo("refunds"), dlq.ReplayDelete()},
	} {
		done, err := st.Replay(ctx, opts...)
		if !errors.Is(err, dlq.ErrNoConsumer) || len(done) != 0 {
			t.Errorf("Replay %s = %d replayed, %v; want none and ErrNoConsumer", name, len(done), err)
		}
		if n, left := msgs(), len(entries(t, st)); n != 0 || left != 2 {
			t.Fatalf("after the replay %s: ORDERS holds %d, the DLQ %d; want 0 and 2", name, n, left)
		}
	}
	done, err := st.Replay(ctx, dlq.ReplayTo("billing-v2"))
	if err != nil || len(done) != 2 {
		t.Fatalf("ReplayTo(billing-v2) = %d replayed, %v", len(done), err)
	}
	m, err := orders.GetMsg(ctx, done[0].Ack.Sequence)
	if err != nil || m.Header.Get(dlq.HeaderReplayFor) != "billing-v2" {
		t.Fatalf("replayed copy: %v, %v", err, m)
	}
	if _, err := st.Replay(ctx, dlq.ReplayTo("a.b")); !errors.Is(err, dlq.ErrInvalidOption) {
		t.Fatalf("ReplayTo(a.b): %v", err)
	}
}

func TestEmptyStoreHasNoEntries(t *testing.T) {
	_, st := setup(t)
	if n := count(t, st); n != 0 {
		t.Fatalf("%d entries in a new DLQ", n)
	}
	if _, err := st.Get(t.Context(), 1); err == nil {
		t.Fatal("Get on an empty DLQ succeeded")
	}
}

func TestNewStreamValidation(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t)
	_, js := srv.MustConnect(t)
	ctx := t.Context()

	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "NARROW", Subjects: []string{"dlq.only.*"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := dlq.New(ctx, js, dlq.WithStream("NARROW")); !errors.Is(err, dlq.ErrStreamConfig) {
		t.Fatalf("New on a stream that misses DLQ subjects: %v, want ErrStreamConfig", err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "WIDE", Subjects: []string{"dead.>"}}); err != nil {
		t.Fatal(err)
	}
	st, err := dlq.New(ctx, js, dlq.WithStream("WIDE"), dlq.WithSubjectPrefix("dead.letters"), dlq.WithoutCreate())
	if err != nil || st.Name() != "WIDE" {
		t.Fatalf("New on an existing wide stream: %v", err)
	}
	if _, err := dlq.New(ctx, js, dlq.WithStream("MISSING"), dlq.WithoutCreate()); !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.Fatalf("New WithoutCreate on a missing stream: %v", err)
	}
	mem, err := dlq.New(ctx, js, dlq.WithStream("MEM"), dlq.WithSubjectPrefix("mem.dlq"), dlq.WithStorage(jetstream.MemoryStorage), dlq.WithReplicas(1))
	if err != nil {
		t.Fatalf("New memory store: %v", err)
	}
	if err := mem.Write(ctx, sample(1)); err != nil {
		t.Fatalf("Write to memory store: %v", err)
	}
	again, err := dlq.New(ctx, js, dlq.WithStream("MEM"), dlq.WithSubjectPrefix("mem.dlq"))
	if err != nil || count(t, again) != 1 {
		t.Fatalf("second New binds to the existing stream: %v", err)
	}
	if _, err := dlq.New(ctx, nil); !errors.Is(err, dlq.ErrInvalidOption) {
		t.Fatalf("New(nil JetStream): %v", err)
	}
}

func TestOptionsRejectBadValues(t *testing.T) {
	cases := map[string]dlq.Option{
		"empty stream":      dlq.WithStream(""),
		"dotted stream":     dlq.WithStream("a.b"),
		"wildcard prefix":   dlq.WithSubjectPrefix("dlq.*"),
		"trailing dot":      dlq.WithSubjectPrefix("dlq."),
		"empty token":       dlq.WithSubjectPrefix("a..b"),
		"zero duplicates":   dlq.WithDuplicates(0),
		"negative payload":  dlq.WithMaxPayload(-1),
		"nil redactor":      dlq.WithRedactor(nil),
		"bad storage":       dlq.WithStorage(jetstream.StorageType(7)),
		"too many replicas": dlq.WithReplicas(6),
	}
	for name, opt := range cases {
		if _, err := dlq.New(context.Background(), nil, opt); !errors.Is(err, dlq.ErrInvalidOption) {
			t.Errorf("%s: err = %v, want ErrInvalidOption", name, err)
		}
	}
}
