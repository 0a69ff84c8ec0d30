package ledger_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/ledger"
	"github.com/retrylint/retrylint/runtime/natstest"
)

// TestRecordsLiveOnTheServer: a record saved by one Store is read by
// another on its own connection (another instance), survives the server's
// restart, and is gone once deleted.
func TestRecordsLiveOnTheServer(t *testing.T) {
	srv := natstest.Start(t)
	_, js := srv.MustConnect(t)
	ctx := t.Context()
	a, err := ledger.New(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	k := ledger.Key{Stream: "ORDERS", Consumer: "billing v2", Seq: 42, Stored: time.Unix(1700000000, 5)}
	if got := k.String(); got != "ORDERS.billing_v2.42.1700000000000000005" {
		t.Fatalf("key %q", got)
	}
	if _, found, err := a.Load(ctx, k); found || err != nil {
		t.Fatalf("Load of a message that never failed: %v, %v", found, err)
	}
	first := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rec := ledger.Record{}.Failed("no_workers", first, 1, "no workers", []string{"*errors.errorString"}).
		Snoozed(2).Failed("no_pool_mapping", first.Add(time.Minute), 3, strings.Repeat("x", 5000), nil)
	if err := a.Save(ctx, k, rec); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	_, js2 := srv.MustConnect(t)
	b, err := ledger.New(ctx, js2, ledger.WithoutCreate())
	if err != nil {
		t.Fatal(err)
	}
	got, found, err := b.Load(ctx, k)
	if err != nil || !found {
		t.Fatalf("Load on another connection after a restart: %v, %v", found, err)
	}
	if got.Attempts != 2 || got.Snoozes != 1 || got.Seen != 3 || got.LastDelivery != 3 || !got.FirstFailure.Equal(first) ||
		got.Classes["no_workers"].Attempts != 1 || !got.Classes["no_pool_mapping"].First.Equal(first.Add(time.Minute)) ||
		got.LastClass != "no_pool_mapping" || len(got.LastError) > 1100 {
		t.Fatalf("record: %+v", got)
	}
	if err := b.Delete(ctx, k); err != nil {
		t.Fatal(err)
	}
	if _, found, err := a.Load(ctx, k); found || err != nil {
		t.Fatalf("Load after Delete: %v, %v", found, err)
	}
	if err := b.Delete(ctx, k); err != nil {
		t.Fatalf("deleting a missing record: %v", err)
	}
}

func TestRecordKeepsFewClasses(t *testing.T) {
	var rec ledger.Record
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 40 {
		rec = rec.Failed(fmt.Sprint("class", i), start.Add(time.Duration(i)*time.Second), uint64(i+1), "x", nil)
	}
	if len(rec.Classes) > 16 || rec.Attempts != 40 {
		t.Fatalf("%d classes, %d attempts", len(rec.Classes), rec.Attempts)
	}
	if _, ok := rec.Classes["class39"]; !ok {
		t.Fatal("the latest class was dropped")
	}
	// Failed does not change the record it is called on.
	before := rec.Classes["class39"]
	_ = rec.Failed("class39", start.Add(time.Hour), 41, "x", nil)
	if rec.Classes["class39"] != before {
		t.Fatal("Failed changed its receiver's classes")
	}
}

func TestOptionsRejectBadValues(t *testing.T) {
	srv := natstest.Start(t)
	_, js := srv.MustConnect(t)
	for name, opt := range map[string]ledger.Option{
		"bucket": ledger.WithBucket("a.b"), "ttl": ledger.WithTTL(0), "replicas": ledger.WithReplicas(0),
		"storage": ledger.WithStorage(jetstream.StorageType(9)),
	} {
		if _, err := ledger.New(t.Context(), js, opt); !errors.Is(err, ledger.ErrInvalidOption) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ledger.New(t.Context(), nil); !errors.Is(err, ledger.ErrInvalidOption) {
		t.Errorf("nil JetStream: %v", err)
	}
	if _, err := ledger.New(t.Context(), js, ledger.WithBucket("ELSEWHERE"), ledger.WithoutCreate()); err == nil {
		t.Error("WithoutCreate on a missing bucket: no error")
	}
}
