package bus

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/natstest"
)

// TestConfirmer drives the confirmer against a real server: an answered
// settlement is confirmed, one without a listener fails with no
// responders, one without an ack subject fails at once, one answered after
// its timeout is confirmed (and reported once), an Ack whose first send is
// not answered is sent again and confirmed, an Ack that is never answered
// is sent confirmSends times and fails with DeadlineExceeded, a Term that
// is never answered is sent once (a Term sent again is one more
// advisory) and fails with DeadlineExceeded, and close returns once all
// are reported.
func TestConfirmer(t *testing.T) {
	nc, _ := natstest.Start(t).MustConnect(t)
	answered, err := nc.Subscribe("ack.answered", func(m *nats.Msg) { _ = m.Respond(nil) })
	if err != nil {
		t.Fatal(err)
	}
	defer answered.Unsubscribe()
	late := make(chan *nats.Msg, 1)
	silent, err := nc.Subscribe("ack.silent", func(m *nats.Msg) {
		select {
		case late <- m: // the first send; the others are not answered
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Unsubscribe()
	var never, second sync.Map // subject -> sends seen
	count := func(m *sync.Map, subject string) int {
		v, _ := m.LoadOrStore(subject, new(int64))
		return int(atomic.AddInt64(v.(*int64), 1))
	}
	neverSub, err := nc.Subscribe("ack.never.*", func(m *nats.Msg) { count(&never, m.Subject) })
	if err != nil {
		t.Fatal(err)
	}
	defer neverSub.Unsubscribe()
	secondSub, err := nc.Subscribe("ack.second", func(m *nats.Msg) {
		if count(&second, m.Subject) == 2 {
			_ = m.Respond(nil)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer secondSub.Unsubscribe()
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	got := map[uint64][]Event{}
	c, err := newConfirmer(nc, 200*time.Millisecond, 4, func(ev Event) {
		mu.Lock()
		got[ev.StreamSeq] = append(got[ev.StreamSeq], ev)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	c.send("ack.answered", ackBody, Event{StreamSeq: 1})
	c.send("ack.nobody", termBody, Event{StreamSeq: 2})
	c.send("ack.silent", ackBody, Event{StreamSeq: 3})
	c.send("", ackBody, Event{StreamSeq: 4})
	c.send("ack.never.ack", ackBody, Event{StreamSeq: 5})
	c.send("ack.never.term", termBody, Event{StreamSeq: 7})
	c.send("ack.second", ackBody, Event{StreamSeq: 6})
	answeredLate := make(chan struct{})
	go func() { // answers the silent one after its timeout
		m := <-late
		time.Sleep(400 * time.Millisecond)
		_ = m.Respond(nil)
		_ = nc.Flush()
		close(answeredLate)
	}()
	<-answeredLate
	time.Sleep(100 * time.Millisecond) // the late answer is in
	c.close()

	want := map[uint64]error{1: nil, 2: nats.ErrNoResponders, 3: nil, 4: jetstream.ErrMsgNoReply, 5: context.DeadlineExceeded, 6: nil, 7: context.DeadlineExceeded}
	for subject, want := range map[string]int64{"ack.never.ack": confirmSends, "ack.never.term": 1} {
		if v, _ := never.Load(subject); v == nil || atomic.LoadInt64(v.(*int64)) != want {
			t.Errorf("%s was not sent %d times", subject, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Errorf("reports for %d settlements, want %d: %v", len(got), len(want), got)
	}
	for seq, wantErr := range want {
		evs := got[seq]
		if len(evs) != 1 {
			t.Errorf("settlement %d reported %d times, want once", seq, len(evs))
			continue
		}
		if ev := evs[0]; !errors.Is(ev.AckErr, wantErr) || ev.Confirmed != (wantErr == nil) {
			t.Errorf("settlement %d: AckErr %v, Confirmed %v; want %v", seq, ev.AckErr, ev.Confirmed, wantErr)
		}
	}
}
