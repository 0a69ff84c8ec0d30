package bus_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
)

// TestConnectionClosedWhileWorkersBusy closes the runner's connection while
// every worker is held by its handler and the Consume callback is blocked
// handing over the next message. Run must return ErrConsumerGone once the
// handlers finish, and nothing may panic: the work channel used to be
// closed under the blocked sender ("send on closed channel").
func TestConnectionClosedWhileWorkersBusy(t *testing.T) {
	e := newEnv(t)
	e.consumer(jetstream.ConsumerConfig{AckWait: 5 * time.Second})
	for range 12 {
		e.publish("orders.created", "{}", nil)
	}
	nc, js := e.srv.MustConnect(t)
	cons, err := js.Consumer(t.Context(), "ORDERS", "worker")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{}, 12)
	release := make(chan struct{})
	h := func(ctx context.Context, m bus.Msg) error {
		started <- struct{}{}
		<-release
		return nil
	}
	r, err := bus.NewRunner(t.Context(), cons, e.dlq, h, bus.WithLogger(e.log), bus.WithConcurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	for range 4 {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatal("the workers did not start")
		}
	}
	time.Sleep(300 * time.Millisecond) // the callback blocks on the fifth message
	nc.Close()
	time.Sleep(300 * time.Millisecond) // a panic in the callback's goroutine ends the test binary here
	close(release)
	select {
	case err := <-done:
		if !errors.Is(err, bus.ErrConsumerGone) {
			t.Fatalf("Run returned %v, want ErrConsumerGone", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after the connection closed")
	}
	time.Sleep(300 * time.Millisecond) // and here, after Run has returned
}
