package bus_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/retry"
)

// TestRefusedDeadLettersEndMinimal: DLQ writes that no retry can cure (a
// Redactor that fails on the message; a DLQ stream whose MaxMsgSize even
// the reduced entry, with 4 KiB of error text, exceeds) used to keep the
// message in redelivery forever. Now the evidence alone is stored,
// flagged, and the message terminated, as the DLQ stream and the server's
// MSG_TERMINATED advisories show.
func TestRefusedDeadLettersEndMinimal(t *testing.T) {
	for _, tc := range []struct {
		name string
		why  string
		opts []dlq.Option
	}{
		{"redactor fails", dlq.ReducedRedactor, []dlq.Option{dlq.WithRedactor(func(*dlq.Entry) error { return errors.New("payload is not JSON") })}},
		{"over MaxMsgSize", dlq.ReducedTooLarge, []dlq.Option{dlq.WithStream("SMALLDLQ"), dlq.WithSubjectPrefix("smalldlq")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			adv := e.captureAdvisories()
			if tc.why == dlq.ReducedTooLarge {
				if _, err := e.js.CreateStream(t.Context(), jetstream.StreamConfig{Name: "SMALLDLQ", Subjects: []string{"smalldlq.>"}, MaxMsgSize: 1024}); err != nil {
					t.Fatal(err)
				}
			}
			store, err := dlq.New(t.Context(), e.js, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			cons := e.consumer(bus.ConsumerConfig("worker"))
			r, err := bus.NewRunner(t.Context(), cons, store, func(context.Context, bus.Msg) error {
				return retry.Permanent(errors.New(strings.Repeat("upstream refused the order; ", 200)))
			}, bus.WithLogger(e.log), bus.WithDeadLetterRetryDelay(100*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			e.run(r)
			seq := e.publish("orders.1", "not json", nil)
			waitFor(t, 10*time.Second, "the Term", func() bool { return slices.Equal(adv.terminated(), []uint64{seq}) })
			var got []*dlq.Entry
			for en, err := range store.Entries(t.Context()) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, en)
			}
			if len(got) != 1 || !got[0].Reduced || got[0].ReducedWhy != tc.why || len(got[0].Data) != 0 ||
				got[0].StreamSeq != seq || got[0].Class != string(bus.ClassPermanent) {
				t.Fatalf("DLQ: %+v", got)
			}
		})
	}
}
