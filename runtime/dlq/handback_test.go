package dlq_test

import (
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
)

// TestHandBackCarriesTheEntry: a handed-back dead letter is stored in its
// original stream on its original subject, meant for its consumer, and
// what the server stored decodes to the entry, with its ID; a second hand
// back of the same delivery stores nothing, one of another delivery does.
func TestHandBackCarriesTheEntry(t *testing.T) {
	js, st := setup(t)
	ctx := t.Context()
	orders, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}, Duplicates: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	e := sample(7)
	ack, err := st.HandBack(ctx, e, e.StreamSeq)
	if err != nil || ack.Stream != "ORDERS" || ack.Duplicate {
		t.Fatalf("HandBack: %+v, %v", ack, err)
	}
	raw, err := orders.GetMsg(ctx, ack.Sequence)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Subject != e.Subject || raw.Header.Get(dlq.HeaderReplayFor) != e.Consumer || raw.Header.Get(dlq.HeaderHandback) != e.ID() {
		t.Fatalf("copy: subject %q, headers %v", raw.Subject, raw.Header)
	}
	got, err := dlq.HandedBack(raw.Header, raw.Data)
	if err != nil || got == nil || got.ID() != e.ID() || !equalEntry(got, e) {
		t.Fatalf("HandedBack: %+v, %v; want %+v", got, err, e)
	}
	if again, err := st.HandBack(ctx, e, e.StreamSeq); err != nil || !again.Duplicate || again.Sequence != ack.Sequence {
		t.Fatalf("the same delivery handed back again: %+v, %v", again, err)
	}
	if next, err := st.HandBack(ctx, e, ack.Sequence); err != nil || next.Duplicate {
		t.Fatalf("the copy handed back: %+v, %v", next, err)
	}

	// Not a hand-back: nil; marked but not an entry, or another entry's
	// ID: ErrNotEntry.
	if got, err := dlq.HandedBack(nats.Header{"Trace-Id": {"abc"}}, nil); got != nil || err != nil {
		t.Fatalf("an ordinary message: %+v, %v", got, err)
	}
	if _, err := dlq.HandedBack(nats.Header{dlq.HeaderHandback: {"x"}}, nil); !errors.Is(err, dlq.ErrNotEntry) {
		t.Fatalf("a marked message without an entry: %v", err)
	}
	raw.Header.Set(dlq.HeaderHandback, sample(8).ID())
	if _, err := dlq.HandedBack(raw.Header, raw.Data); !errors.Is(err, dlq.ErrNotEntry) {
		t.Fatalf("a copy whose mark names another entry: %v", err)
	}
}
