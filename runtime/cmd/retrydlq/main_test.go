package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/natstest"
)

// fixture starts a server with an ORDERS stream and a DLQ holding three
// entries: two permanent failures of the billing consumer (orders.created,
// orders.updated) and an undecodable one of the shipping consumer
// (orders.refund).
func fixture(t *testing.T) (url string, js jetstream.JetStream, store *dlq.Store) {
	t.Helper()
	srv := natstest.Start(t)
	_, js = srv.MustConnect(t)
	ctx := t.Context()
	orders, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"billing", "shipping"} {
		if _, err := orders.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: c, AckPolicy: jetstream.AckExplicitPolicy}); err != nil {
			t.Fatal(err)
		}
	}
	store, err = dlq.New(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, e := range []dlq.Entry{
		{Subject: "orders.created", Consumer: "billing", Class: "permanent", Error: "charge: unknown customer", Data: []byte(`{"id":1}`)},
		{Subject: "orders.updated", Consumer: "billing", Class: "permanent", Error: "charge: card declined", Data: []byte(`{"id":2}`)},
		{Subject: "orders.refund", Consumer: "shipping", Class: "undecodable", Error: "bus: undecodable payload", Data: []byte(`{`)},
	} {
		e.Stream, e.StreamSeq, e.Stored, e.Deliveries = "ORDERS", uint64(i+1), now, 1
		e.FirstFailure, e.LastFailure = now, now
		if err := store.Write(ctx, &e); err != nil {
			t.Fatal(err)
		}
	}
	return srv.URL(), js, store
}

type result struct {
	code           int
	stdout, stderr string
}

func runCmd(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), args, &stdout, &stderr)
	return result{code, stdout.String(), stderr.String()}
}

func TestListAndShow(t *testing.T) {
	url, _, _ := fixture(t)
	r := runCmd(t, "list", "-server", url)
	if r.code != 0 || strings.Count(r.stdout, "\n") != 4 || !strings.Contains(r.stdout, "orders.refund") ||
		!strings.Contains(r.stdout, "charge: card declined") {
		t.Fatalf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "list", "-server", url, "-json", "-class", "permanent", "-subject", "orders.*")
	var entries []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &entries); err != nil || len(entries) != 2 || entries[0]["consumer"] != "billing" {
		t.Fatalf("list -json -class permanent: %v, %s", err, r.stdout)
	}
	if r := runCmd(t, "list", "-server", url, "-since", "1h", "-until", "-1h"); strings.Count(r.stdout, "\n") != 4 {
		t.Errorf("list in the last hour: %s", r.stdout)
	}
	if r := runCmd(t, "list", "-server", url, "-until", "1h"); strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("list until an hour ago (the header only): %s", r.stdout)
	}
	r = runCmd(t, "show", "-server", url, "3")
	if r.code != 0 || !strings.Contains(r.stdout, "class:        undecodable") || !strings.Contains(r.stdout, "payload:\n{") {
		t.Errorf("show 3: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestReplay: replaying the permanent failures republishes them to their
// subjects for the consumer that failed them, reports progress, and with
// -delete removes them from the DLQ.
func TestReplay(t *testing.T) {
	url, js, store := fixture(t)
	if r := runCmd(t, "replay", "-server", url, "-class", "permanent", "-dry-run"); r.code != 0 || strings.Count(r.stdout, "would replay") != 2 {
		t.Fatalf("dry run: %+v", r)
	}
	r := runCmd(t, "replay", "-server", url, "-class", "permanent", "-delete")
	if r.code != 0 || strings.Count(r.stdout, "replayed ") != 2 || !strings.Contains(r.stderr, "replayed 2 of 2") {
		t.Fatalf("replay: %+v", r)
	}
	st, err := js.Stream(t.Context(), "ORDERS")
	if err != nil {
		t.Fatal(err)
	}
	for seq, subject := range map[uint64]string{1: "orders.created", 2: "orders.updated"} {
		m, err := st.GetMsg(t.Context(), seq)
		if err != nil || m.Subject != subject || m.Header.Get(dlq.HeaderReplayFor) != "billing" {
			t.Errorf("ORDERS seq %d: %v %+v", seq, err, m)
		}
	}
	var left []string
	for e, err := range store.Entries(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		left = append(left, e.Subject)
	}
	if len(left) != 1 || left[0] != "orders.refund" {
		t.Errorf("DLQ after replay -delete: %v", left)
	}
}

// TestReplayToAConsumerThatIsGone: with the billing consumer deleted,
// replaying its entries is refused (exit 1, naming the consumer): ORDERS
// gets no copy and the DLQ keeps them, as the server tells; -to-consumer
// names the consumer that took over.
func TestReplayToAConsumerThatIsGone(t *testing.T) {
	url, js, store := fixture(t)
	ctx := t.Context()
	orders, err := js.Stream(ctx, "ORDERS")
	if err != nil {
		t.Fatal(err)
	}
	if err := orders.DeleteConsumer(ctx, "billing"); err != nil {
		t.Fatal(err)
	}
	dlqLen := func() int {
		n := 0
		for _, err := range store.Entries(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		return n
	}
	ordersLen := func() uint64 {
		info, err := orders.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Msgs
	}
	r := runCmd(t, "replay", "-server", url, "-consumer", "billing", "-delete")
	if r.code != 1 || !strings.Contains(r.stderr, "consumer billing on stream ORDERS") {
		t.Fatalf("replay to a deleted consumer: %+v", r)
	}
	if n, m := dlqLen(), ordersLen(); n != 3 || m != 0 {
		t.Fatalf("after the refused replay: DLQ %d entries, ORDERS %d messages; want 3 and 0", n, m)
	}
	if _, err := orders.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: "billing-v2", AckPolicy: jetstream.AckExplicitPolicy}); err != nil {
		t.Fatal(err)
	}
	r = runCmd(t, "replay", "-server", url, "-consumer", "billing", "-to-consumer", "billing-v2", "-delete")
	if r.code != 0 || strings.Count(r.stdout, "replayed ") != 2 {
		t.Fatalf("replay -to-consumer: %+v", r)
	}
	m, err := orders.GetMsg(ctx, 1)
	if err != nil || m.Header.Get(dlq.HeaderReplayFor) != "billing-v2" {
		t.Fatalf("ORDERS seq 1: %v %+v", err, m)
	}
	if n := dlqLen(); n != 1 {
		t.Fatalf("DLQ holds %d entries after replay -delete, want 1", n)
	}
}

func TestPurge(t *testing.T) {
	url, _, store := fixture(t)
	if r := runCmd(t, "purge", "-server", url, "-consumer", "shipping"); r.code != 2 || !strings.Contains(r.stderr, "-yes") {
		t.Fatalf("purge without -yes: %+v", r)
	}
	if r := runCmd(t, "purge", "-server", url, "-consumer", "shipping", "-yes"); r.code != 0 || r.stdout != "purged 1 entries\n" {
		t.Fatalf("purge: %+v", r)
	}
	n := 0
	for _, err := range store.Entries(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d entries left, want 2", n)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"frobnicate"}, {"list", "-bogus"}, {"show"}, {"show", "x"}, {"list", "-seq", "1,x"},
		{"list", "-since", "yesterday"}, {"list", "-tls-cert", "c.pem"},
	} {
		if r := runCmd(t, args...); r.code != 2 || r.stderr == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message", args, r.code, r.stderr)
		}
	}
	if !dlq.MatchSubject("orders.>", "orders.eu.created") || dlq.MatchSubject("orders.*", "orders.eu.created") ||
		!dlq.MatchSubject("orders.*.created", "orders.eu.created") || dlq.MatchSubject("orders.>", "orders") {
		t.Error("subject patterns")
	}
}

// TestAForeignMessageInTheDLQ: a message that is not an entry, published
// into the DLQ stream between the entries, is skipped with a note on
// stderr: list still shows every entry after it, and purge deletes the
// entries and leaves it, as the server's stream tells.
func TestAForeignMessageInTheDLQ(t *testing.T) {
	url, js, store := fixture(t)
	ctx := t.Context()
	if _, err := js.Publish(ctx, "dlq.not.an.entry", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	last := dlq.Entry{Subject: "orders.late", Stream: "ORDERS", Consumer: "billing", StreamSeq: 9, Stored: now,
		Class: "permanent", Error: "after the foreign one", FirstFailure: now, LastFailure: now}
	if err := store.Write(ctx, &last); err != nil {
		t.Fatal(err)
	}
	r := runCmd(t, "list", "-server", url)
	if r.code != 0 || strings.Count(r.stdout, "\n") != 5 || !strings.Contains(r.stdout, "orders.late") ||
		!strings.Contains(r.stderr, "not a DLQ entry") {
		t.Fatalf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCmd(t, "purge", "-server", url, "-yes"); r.code != 0 || r.stdout != "purged 4 entries\n" {
		t.Fatalf("purge: %+v", r)
	}
	st, err := js.Stream(ctx, store.Name())
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil || info.State.Msgs != 1 {
		t.Fatalf("the DLQ stream holds %v messages after the purge, want the foreign one (%v)", info.State.Msgs, err)
	}
}
