package bus_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/natstest"
)

// benchPull is the pull buffer of both benchmarks, so they differ only in
// what happens to each message.
const benchPull = 100

// benchSetup starts a server, publishes b.N messages and returns a consumer
// over them and a DLQ store.
func benchSetup(b *testing.B) (jetstream.Consumer, *dlq.Store, jetstream.JetStream) {
	b.Helper()
	srv := natstest.Start(b)
	_, js := srv.MustConnect(b)
	ctx := context.Background()
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}})
	if err != nil {
		b.Fatal(err)
	}
	store, err := dlq.New(ctx, js)
	if err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"order":42,"amount":1999,"currency":"EUR"}`)
	for range b.N {
		if _, err := js.PublishAsync("orders.created", payload); err != nil {
			b.Fatal(err)
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(time.Minute):
		b.Fatal("publishing did not complete")
	}
	cons, err := st.CreateOrUpdateConsumer(ctx, bus.ConsumerConfig("bench"))
	if err != nil {
		b.Fatal(err)
	}
	return cons, store, js
}

// BenchmarkConsume compares the throughput of a Runner with a bare jetstream
// consume-and-ack loop on the same embedded server. The two run as
// sub-benchmarks so that -count interleaves them, which keeps load on a
// shared machine from favouring one.
func BenchmarkConsume(b *testing.B) {
	b.Run("bare", func(b *testing.B) { benchBareConsume(b, false) })
	b.Run("bare-confirmed", func(b *testing.B) { benchBareConsume(b, true) })
	b.Run("runner", func(b *testing.B) { benchRunner(b, false) })
	b.Run("runner-confirmed", func(b *testing.B) { benchRunner(b, true) })
}

// benchBareConsume is the baseline: a jetstream Consume callback that acks
// every message.
func benchBareConsume(b *testing.B, confirmed bool) {
	cons, _, _ := benchSetup(b)
	var n atomic.Int64
	done := make(chan struct{})
	b.ResetTimer()
	cc, err := cons.Consume(func(m jetstream.Msg) {
		ack := m.Ack
		if confirmed {
			ack = func() error { return m.DoubleAck(context.Background()) }
		}
		if err := ack(); err != nil {
			b.Error(err)
		}
		if n.Add(1) == int64(b.N) {
			close(done)
		}
	}, jetstream.PullMaxMessages(benchPull))
	if err != nil {
		b.Fatal(err)
	}
	<-done
	b.StopTimer()
	cc.Stop()
}

// benchRunner is the same work through a Runner: metadata, the decision
// function, a handler that succeeds, the heartbeat slot, an observer, Ack.
//
// confirmed turns WithConfirmedSettlement on: each Ack is a request the
// server answers.
func benchRunner(b *testing.B, confirmed bool) {
	cons, store, js := benchSetup(b)
	var n atomic.Int64
	done := make(chan struct{})
	opts := []bus.Option{
		bus.WithLogger(slog.New(slog.DiscardHandler)),
		bus.WithPullMaxMessages(benchPull),
		bus.WithObserver(func(ev bus.Event) {
			if ev.Decision.Action != bus.ActionAck || ev.AckErr != nil || ev.Confirmed != confirmed {
				b.Errorf("unexpected outcome %v %v (confirmed %v)", ev.Decision.Action, ev.AckErr, ev.Confirmed)
			}
			if n.Add(1) == int64(b.N) {
				close(done)
			}
		}),
	}
	if confirmed {
		opts = append(opts, bus.WithConfirmedSettlement(js))
	}
	r, err := bus.NewRunner(context.Background(), cons, store,
		func(context.Context, bus.Msg) error { return nil }, opts...)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	b.ResetTimer()
	go func() { stopped <- r.Run(ctx) }()
	<-done
	b.StopTimer()
	cancel()
	if err := <-stopped; err != nil {
		b.Fatal(err)
	}
}
