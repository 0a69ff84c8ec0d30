package bus

import (
	"context"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// nopMsg is a jetstream.Msg whose acknowledgements cost nothing.
type nopMsg struct{ fakeMsg }

func (*nopMsg) Ack() error { return nil }

// Headers returns the message's headers, parsed already, as jetstream's
// messages do (the fake's builds them on every call).
func (*nopMsg) Headers() nats.Header { return benchHeader }

var benchHeader = nats.Header{"Content-Type": {"application/json"}}

// Reply is a real ack subject, so the benchmark takes the success fast path.
func (*nopMsg) Reply() string { return "$JS.ACK.ORDERS.worker.1.42.42.1795277680085479286.0" }

// BenchmarkProcessOverhead measures what the runner adds per successful
// message, without the network: the ack subject parse, two decisions, the
// heartbeat slot, the handler call, the event.
func BenchmarkProcessOverhead(b *testing.B) {
	r := testRunner(nil, nil, nil, func(context.Context, Msg) error { return nil })
	r.observe = func(Event) {}
	m := &nopMsg{fakeMsg{md: jetstream.MsgMetadata{NumDelivered: 1}}}
	b.ReportAllocs()
	for b.Loop() {
		r.process(m, r.slots[0])
	}
}
