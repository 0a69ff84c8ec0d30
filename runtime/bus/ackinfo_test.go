package bus

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/natstest"
)

func TestAckInfo(t *testing.T) {
	cases := []struct {
		reply  string
		n, seq uint64
		ok     bool
	}{
		{"$JS.ACK.ORDERS.worker.3.42.7.1795277680085479286.0", 3, 42, true},
		{"$JS.ACK.hub.ACCHASH.ORDERS.worker.2.1000.9.1795277680085479286.5.rNd", 2, 1000, true},
		{"$JS.ACK.hub.ACCHASH.ORDERS.worker.2.1000.9.1795277680085479286.5", 2, 1000, true},
		{"$JS.ACK._.ACCHASH.ORDERS.worker.1.1.1.1.0.x.y", 1, 1, true},
		{"", 0, 0, false},
		{"_INBOX.abc", 0, 0, false},
		{"$JS.ACK.ORDERS.worker.3.42.7.0", 0, 0, false},     // 8 tokens
		{"$JS.ACK.a.b.ORDERS.worker.3.42.7.1", 0, 0, false}, // 10 tokens
		{"$JS.ACK.ORDERS.worker.x.42.7.1795277680085479286.0", 0, 0, false},
		{"$JS.ACK.ORDERS.worker.3..7.1795277680085479286.0", 0, 0, false},
		{"$JS.ACK.ORDERS.worker.99999999999999999999.1.7.1.0", 0, 0, false}, // too long
	}
	for _, c := range cases {
		n, seq, ok := ackInfo(c.reply)
		if n != c.n && c.ok || seq != c.seq && c.ok || ok != c.ok {
			t.Errorf("ackInfo(%q) = %d, %d, %v; want %d, %d, %v", c.reply, n, seq, ok, c.n, c.seq, c.ok)
		}
	}
}

// TestAckInfoMatchesMetadata checks the fast path against nats.go's parser on
// real deliveries, first and redelivered.
func TestAckInfoMatchesMetadata(t *testing.T) {
	t.Parallel()
	srv := natstest.Start(t)
	_, js := srv.MustConnect(t)
	ctx := t.Context()
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s.>"}})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := js.Publish(ctx, "s.x", nil); err != nil {
			t.Fatal(err)
		}
	}
	c, err := st.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: "d", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		m, err := c.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			t.Fatal(err)
		}
		md, err := m.Metadata()
		if err != nil {
			t.Fatal(err)
		}
		n, seq, stored, ok := ackFields(m.Reply())
		if !ok || n != md.NumDelivered || seq != md.Sequence.Stream || stored != md.Timestamp.UnixNano() {
			t.Fatalf("ackFields(%q) = %d, %d, %d, %v; Metadata says %d, %d, %d", m.Reply(), n, seq, stored, ok,
				md.NumDelivered, md.Sequence.Stream, md.Timestamp.UnixNano())
		}
		if i < 3 {
			_ = m.Nak() // redeliver: NumDelivered 2 on the second round
		} else {
			_ = m.Ack()
		}
	}
}
