package bus_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/retry"
)

// TestConfirmedSettlement: with WithConfirmedSettlement every Ack and Term
// is answered by the server before its event is reported, and the server
// tells them apart: the permanent failure's message is the one it reports
// terminated (its advisory stream), the others are acked, nothing is
// pending.
func TestConfirmedSettlement(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(bus.ConsumerConfig("worker"))
	var bad uint64
	for i := range 4 {
		seq := e.publish("orders.created", "{}", nil)
		if i == 2 {
			bad = seq
		}
	}
	_, rec := e.start(cons, func(_ context.Context, m bus.Msg) error {
		md, err := m.Metadata()
		if err != nil {
			return err
		}
		if md.Sequence.Stream == bad {
			return retry.Permanent(errors.New("order rejected"))
		}
		return nil
	}, bus.WithConfirmedSettlement(e.js))
	evs := rec.wait(t, 10*time.Second, "four events", count(4))
	for _, ev := range evs {
		if !ev.Confirmed || ev.AckErr != nil {
			t.Errorf("seq %d (%v): Confirmed %v, AckErr %v; want the server's answer", ev.StreamSeq, ev.Decision.Action, ev.Confirmed, ev.AckErr)
		}
	}
	waitFor(t, 10*time.Second, "nothing pending", func() bool {
		info, err := cons.Info(t.Context())
		return err == nil && info.NumPending == 0 && info.NumAckPending == 0
	})
	// The advisory is stored apart from the Term: wait for it.
	waitFor(t, 5*time.Second, "the server's terminated advisory", func() bool { return slices.Equal(adv.terminated(), []uint64{bad}) })
	if n := len(e.entries()); n != 1 {
		t.Errorf("%d DLQ entries, want 1", n)
	}
}

// TestFireAndForgetAckDuringAReconnect: an Ack sent while the server is
// away is buffered by nats.go, which reports success at once, whether or
// not it lands.
func TestFireAndForgetAckDuringAReconnect(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 2 * time.Second})
	e.publish("orders.created", "{}", nil)
	stopped := false
	_, rec := e.start(cons, func(context.Context, bus.Msg) error {
		if !stopped {
			stopped = true
			e.srv.Shutdown() // the Ack goes out while the client reconnects
		}
		return nil
	})
	ev := rec.wait(t, 10*time.Second, "the first event", count(1))[0]
	if err := e.srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if ev.Confirmed || ev.AckErr != nil {
		t.Errorf("fire-and-forget: Confirmed %v, AckErr %v; want nats.go's buffered success", ev.Confirmed, ev.AckErr)
	}
}

// TestConfirmedAckThatLandsAfterAReconnect: the handler succeeds while the
// server is away, so the Ack goes out while the client reconnects, and
// the server comes back three confirm timeouts later. The Ack lands (the
// buffered one, or the one the runner sends again after the reconnect):
// read from the server, the message is acked, once delivered, nothing
// pending; and the runner reports it confirmed, not failed. (It reported
// the timeout while the server was away, and never sent the Ack again.)
func TestConfirmedAckThatLandsAfterAReconnect(t *testing.T) {
	e := newEnv(t)
	cons := e.consumer(jetstream.ConsumerConfig{AckWait: 10 * time.Second})
	seq := e.publish("orders.created", "{}", nil)
	down := make(chan struct{})
	_, rec := e.start(cons, func(context.Context, bus.Msg) error {
		e.srv.Shutdown()
		close(down)
		return nil
	}, bus.WithConfirmedSettlement(e.js), bus.WithConfirmTimeout(500*time.Millisecond))
	select {
	case <-down:
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery")
	}
	time.Sleep(1500 * time.Millisecond) // three confirm timeouts
	if err := e.srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the server to apply the Ack", func() bool {
		info, err := cons.Info(t.Context())
		return err == nil && info.AckFloor.Stream == seq && info.NumAckPending == 0
	})
	ev := rec.wait(t, 10*time.Second, "the Ack's event", count(1))[0]
	if !ev.Confirmed || ev.AckErr != nil {
		t.Fatalf("the server applied the Ack (ack floor %d, nothing pending), but the runner reported Confirmed %v, AckErr %v",
			seq, ev.Confirmed, ev.AckErr)
	}
	if info := e.info(cons); info.Delivered.Consumer != 1 || info.NumRedelivered != 0 {
		t.Fatalf("the server delivered the message %d times", info.Delivered.Consumer)
	}
}
