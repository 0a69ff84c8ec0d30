package natstest_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/natstest"
)

// TestRestartKeepsStateAndClientsReconnect: the file store survives a
// restart on the same port, and a client made with Connect reconnects.
func TestRestartKeepsStateAndClientsReconnect(t *testing.T) {
	srv := natstest.Start(t)
	nc, js := srv.MustConnect(t)
	ctx := t.Context()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "s", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	url := srv.URL()
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if srv.URL() != url || srv.StoreDir() == "" {
		t.Fatalf("URL %s → %s, store %q", url, srv.URL(), srv.StoreDir())
	}
	deadline := time.Now().Add(10 * time.Second)
	for !nc.IsConnected() {
		if time.Now().After(deadline) {
			t.Fatal("client did not reconnect")
		}
		time.Sleep(20 * time.Millisecond)
	}
	st, err := js.Stream(ctx, "S")
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetMsg(ctx, 1)
	if err != nil || string(m.Data) != "kept" {
		t.Fatalf("after restart: %v, %v", m, err)
	}
	srv.Shutdown()
	srv.Shutdown() // idempotent
}

func TestClusterSurvivesItsStreamLeaderRestarting(t *testing.T) {
	c := natstest.StartCluster(t, 3)
	_, js := c.MustConnect(t)
	ctx := t.Context()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "R3", Subjects: []string{"r3.>"}, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "r3.a", []byte("1")); err != nil {
		t.Fatal(err)
	}
	leader, err := c.StreamLeader("R3")
	if err != nil {
		t.Fatal(err)
	}
	leader.Shutdown()
	next, err := c.StreamLeader("R3") // another node takes over
	if err != nil || next == leader {
		t.Fatalf("new leader %v, %v", next, err)
	}
	if _, err := js.Publish(ctx, "r3.b", []byte("2")); err != nil {
		t.Fatalf("publish with the leader down: %v", err)
	}
	if err := leader.Restart(); err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, "R3")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := st.Info(ctx); err != nil || info.State.Msgs != 2 || info.Config.Replicas != 3 {
		t.Fatalf("stream after the restart: %+v, %v", info, err)
	}
}
