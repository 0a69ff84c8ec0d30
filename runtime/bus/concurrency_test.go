package bus_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/retrylint/retrylint/runtime/bus"
)

// TestHungHandlerDoesNotStopTheConsumer: one handler call hangs, deaf to
// its context, and ten messages follow it. With the defaults a new user
// gets (there used to be one worker: the Consume callback itself, which
// the call held), and with one worker and a short handler timeout (the
// deaf call is abandoned and its worker replaced), the ten are acked
// while the call still hangs: the server shows nothing pending and one
// message, the hung one or its redelivery, awaiting an ack.
func TestHungHandlerDoesNotStopTheConsumer(t *testing.T) {
	for name, opts := range map[string][]bus.Option{
		"defaults":   nil,
		"one worker": {bus.WithConcurrency(1), bus.WithHandlerTimeout(300 * time.Millisecond)},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			cons := e.consumer(bus.ConsumerConfig("worker"))
			block := make(chan struct{})
			e.start(cons, func(_ context.Context, m bus.Msg) error {
				if m.Subject() == "orders.hung" {
					<-block // hung, deaf to its context
				}
				return nil
			}, opts...)
			t.Cleanup(func() { close(block) }) // before Run is canceled: cleanups run last first
			e.publish("orders.hung", "x", nil)
			for i := range 10 {
				e.publish(fmt.Sprintf("orders.%d", i), "x", nil)
			}
			waitFor(t, 10*time.Second, "the ten other messages acked", func() bool {
				info := e.info(cons)
				return info.NumPending == 0 && info.NumAckPending == 1 && info.Delivered.Stream == 11
			})
		})
	}
}
