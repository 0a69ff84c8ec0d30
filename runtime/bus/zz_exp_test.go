package bus_test

import (
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

func BenchmarkExpBareMeta(b *testing.B) {
	cons, _ := benchSetup(b)
	var n atomic.Int64
	done := make(chan struct{})
	b.ResetTimer()
	cc, err := cons.Consume(func(m jetstream.Msg) {
		m.Metadata()
		if err := m.Ack(); err != nil {
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
