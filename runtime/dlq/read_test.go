package dlq_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
)

// TestAForeignMessageHidesNoEntry: a message published into the DLQ stream
// by something else (no evidence headers) sits between two entries.
// Entries yields it as ErrNotEntry and goes on to the entry after it;
// Replay republishes both entries, as the origin stream tells.
func TestAForeignMessageHidesNoEntry(t *testing.T) {
	js, st := setup(t)
	ctx := t.Context()
	orders, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := orders.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: "billing", AckPolicy: jetstream.AckExplicitPolicy}); err != nil {
		t.Fatal(err)
	}
	if err := st.Write(ctx, sample(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "dlq.something.else", []byte("not an entry")); err != nil {
		t.Fatal(err)
	}
	if err := st.Write(ctx, sample(2)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for e, err := range st.Entries(ctx) {
		switch {
		case errors.Is(err, dlq.ErrNotEntry):
			got = append(got, "foreign")
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, fmt.Sprint(e.StreamSeq))
		}
	}
	if fmt.Sprint(got) != "[1 foreign 2]" {
		t.Fatalf("Entries: %v, want [1 foreign 2]", got)
	}
	done, err := st.Replay(ctx)
	if err != nil || len(done) != 2 {
		t.Fatalf("Replay: %d replayed, %v", len(done), err)
	}
	info, err := orders.Info(ctx)
	if err != nil || info.State.Msgs != 2 {
		t.Fatalf("ORDERS holds %v messages, want the 2 replayed (%v)", info.State.Msgs, err)
	}
}

// TestEntriesReadInBatches: listing 1,000 entries takes a few pull
// requests, not one (or two: a consumer reset and a fetch) per entry: the
// client's count of published messages, which counts the requests, tells.
func TestEntriesReadInBatches(t *testing.T) {
	js, st := setup(t)
	ctx := t.Context()
	const n = 1000
	for i := range uint64(n) {
		e := sample(i + 1)
		e.Data = nil
		if err := st.Write(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	nc := js.Conn()
	before := nc.Stats().OutMsgs
	read := 0
	for _, err := range st.Entries(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		read++
	}
	requests := nc.Stats().OutMsgs - before
	if read != n || requests > 30 {
		t.Fatalf("read %d of %d entries with %d requests, want a few per %d entries", read, n, requests, 256)
	}
}
