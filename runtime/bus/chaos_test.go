package bus_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/bus"
	"github.com/retrylint/retrylint/runtime/dlq"
	"github.com/retrylint/retrylint/runtime/natstest"
	"github.com/retrylint/retrylint/runtime/retry"
)

var chaosLong = flag.Bool("chaos.long", false, "run the chaos tests for minutes instead of seconds")

// broker is the server side of a chaos run: one server, or a cluster.
type broker interface {
	connect(t *testing.T) (*nats.Conn, jetstream.JetStream)
	// disrupt kills the node that serves the stream (the server, or the
	// stream's leader) and starts it again on the same ports and store.
	disrupt(t *testing.T, stream string)
	replicas() int
}

type singleBroker struct{ srv *natstest.Server }

func (b singleBroker) connect(t *testing.T) (*nats.Conn, jetstream.JetStream) {
	return b.srv.MustConnect(t)
}

func (b singleBroker) disrupt(t *testing.T, _ string) {
	b.srv.Shutdown()
	time.Sleep(time.Second)
	if err := b.srv.Restart(); err != nil {
		t.Fatalf("restart: %v", err)
	}
}

func (singleBroker) replicas() int { return 1 }

type clusterBroker struct{ c *natstest.Cluster }

func (b clusterBroker) connect(t *testing.T) (*nats.Conn, jetstream.JetStream) {
	return b.c.MustConnect(t)
}

func (b clusterBroker) disrupt(t *testing.T, stream string) {
	leader, err := b.c.StreamLeader(stream)
	if err != nil {
		t.Fatalf("stream leader: %v", err)
	}
	leader.Shutdown()
	time.Sleep(2 * time.Second) // another node is elected meanwhile
	if err := leader.Restart(); err != nil {
		t.Fatalf("restart: %v", err)
	}
}

func (clusterBroker) replicas() int { return 3 }

// chaosPlan is the shape of a run.
type chaosPlan struct {
	messages    int           // published over the run, at a steady rate
	publishFor  time.Duration // how long publishing lasts
	runners     int           // runner instances, each on its own connection
	workers     int           // WithConcurrency of each runner
	disruptions int           // node kills and restarts, spread over the run
	outages     int           // DLQ outages, spread over the run
	outageFor   time.Duration
	restarts    int // rolling runner restarts (stop one, start a new one)
}

func (p chaosPlan) scaled() chaosPlan {
	if *chaosLong {
		p.messages *= 10
		p.publishFor *= 8
		p.disruptions *= 3
		p.outages *= 3
		p.restarts *= 3
	}
	return p
}

// The outcome each message asks of its handler, by its id (orders.<id>).
func chaosOutcome(id int) string {
	switch id % 10 {
	case 0:
		return "permanent" // dead-lettered at once
	case 1:
		return "undecodable" // dead-lettered at the poison threshold
	case 2:
		return "transient-twice" // fails twice, then succeeds
	case 3:
		return "transient-always" // dead-lettered on the cap
	}
	return "ok"
}

// flakyDLQ is the runners' dead-letter writer: the real store, which
// refuses writes while the DLQ is "down".
type flakyDLQ struct {
	store   *dlq.Store
	down    atomic.Bool
	refused atomic.Int64

	mu      sync.Mutex
	written map[string]time.Time // subject -> last successful write (the Term follows it)
}

var errDLQDown = errors.New("dlq unavailable")

func (f *flakyDLQ) Write(ctx context.Context, e *dlq.Entry) error {
	if f.down.Load() {
		f.refused.Add(1)
		return errDLQDown
	}
	err := f.store.Write(ctx, e)
	if err == nil {
		f.mu.Lock()
		if f.written == nil {
			f.written = make(map[string]time.Time)
		}
		f.written[e.Subject] = time.Now()
		f.mu.Unlock()
	}
	return err
}

// writtenAt returns when the entry of subject was last written.
func (f *flakyDLQ) writtenAt(subject string) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.written[subject]
}

// window is a stretch of time around a node kill: from just before the
// kill to a while after the restart.
type window struct{ from, to time.Time }

// advisoryMayBeLost reports whether a Term at t may have lost its
// MSG_TERMINATED advisory to a node kill: a server that dies right after
// applying a Term (its raft log keeps it) takes the advisory it had yet to
// send with it, and the new leader does not send it again. Only a Term
// close to a kill is excused: a runner that Acked instead of Terming would
// lose every advisory, not those.
func advisoryMayBeLost(t time.Time, kills []window) bool {
	for _, w := range kills {
		if !t.Before(w.from) && !t.After(w.to) {
			return true
		}
	}
	return false
}

// chaosResult is what a run measured.
type chaosResult struct {
	messages, deliveries, succeeded, deadLettered, terminated int
	disruptions, outages, restarts                            int
	refusedWrites                                             int64
	lost, doubled                                             int // neither acked after success nor dead-lettered; stored or terminated twice
	advisoriesLost                                            int // Terms whose advisory a node kill took (advisoryMayBeLost)
}

func (r chaosResult) String() string {
	return fmt.Sprintf("%d messages, %d handler calls, %d succeeded, %d dead-lettered, %d terminated by the server; "+
		"%d node restarts, %d DLQ outages (%d writes refused), %d runner restarts; lost %d, doubled %d; "+
		"%d terminated advisories lost to node kills",
		r.messages, r.deliveries, r.succeeded, r.deadLettered, r.terminated, r.disruptions, r.outages, r.refusedWrites, r.restarts,
		r.lost, r.doubled, r.advisoriesLost)
}

// runChaos runs the plan against b and checks, from the server's state,
// that every message ended acked after a successful handler call or in the
// DLQ, exactly once, and terminated there and only there.
func runChaos(t *testing.T, b broker, plan chaosPlan) chaosResult {
	ctx := t.Context()
	_, js := b.connect(t)
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "ORDERS", Subjects: []string{"orders.>"}, Replicas: b.replicas(), Duplicates: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name: "ADVISORIES", Replicas: b.replicas(),
		Subjects: []string{terminatedPrefix + ".ORDERS.>", maxDeliveriesPrefix + ".ORDERS.>"},
	}); err != nil {
		t.Fatal(err)
	}
	store, err := dlq.New(ctx, js, dlq.WithReplicas(b.replicas()))
	if err != nil {
		t.Fatal(err)
	}
	dead := &flakyDLQ{store: store}
	cc := bus.ConsumerConfig("chaos")
	cc.AckWait = 2 * time.Second
	cons, err := js.CreateOrUpdateConsumer(ctx, "ORDERS", cc)
	if err != nil {
		t.Fatal(err)
	}

	// The application's own record: which messages a handler call
	// succeeded for. Everything else is read from the server.
	var (
		mu        sync.Mutex
		succeeded = map[int]bool{}
		calls     atomic.Int64
	)
	handle := func(ctx context.Context, m bus.Msg) error {
		calls.Add(1)
		id, err := strconv.Atoi(strings.TrimPrefix(m.Subject(), "orders."))
		if err != nil {
			return bus.Undecodable(err)
		}
		md, err := m.Metadata()
		if err != nil {
			return err
		}
		time.Sleep(2 * time.Millisecond) // some work
		switch chaosOutcome(id) {
		case "permanent":
			return fmt.Errorf("order %d: %w", id, errDeclined)
		case "undecodable":
			return bus.Undecodable(io.ErrUnexpectedEOF)
		case "transient-twice":
			if md.NumDelivered <= 2 {
				return retry.RetryAfter(io.ErrUnexpectedEOF, 50*time.Millisecond)
			}
		case "transient-always":
			return retry.RetryAfter(io.ErrUnexpectedEOF, 30*time.Millisecond)
		}
		mu.Lock()
		succeeded[id] = true
		mu.Unlock()
		return nil
	}

	// Runners, each on a connection of its own, restartable.
	type instance struct {
		cancel context.CancelFunc
		done   chan error
	}
	started := 0
	start := func() instance {
		_, js := b.connect(t)
		c, err := js.Consumer(ctx, "ORDERS", "chaos")
		if err != nil {
			t.Fatalf("consumer: %v", err)
		}
		opts := []bus.Option{bus.WithConcurrency(plan.workers), bus.WithMaxDeliveries(4),
			bus.WithPoisonDelay(50 * time.Millisecond), bus.WithDeadLetterRetryDelay(200 * time.Millisecond),
			bus.WithDeadLetterTimeout(time.Second), bus.WithDrainTimeout(2 * time.Second), bus.WithBackoff(fastPolicy(t)),
			bus.WithLogger(discard)}
		if started++; started%2 == 0 { // every other runner confirms its Acks and Terms
			opts = append(opts, bus.WithConfirmedSettlement(js), bus.WithConfirmTimeout(time.Second))
		}
		r, err := bus.NewRunner(ctx, c, dead, handle, opts...)
		if err != nil {
			t.Fatalf("NewRunner: %v", err)
		}
		rctx, cancel := context.WithCancel(context.Background())
		in := instance{cancel: cancel, done: make(chan error, 1)}
		go func() { in.done <- r.Run(rctx) }()
		return in
	}
	stop := func(in instance) {
		in.cancel()
		select {
		case err := <-in.done:
			if err != nil && !errors.Is(err, bus.ErrConsumerGone) {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("Run did not return within 20s of cancel")
		}
	}
	var runners []instance
	for range plan.runners {
		runners = append(runners, start())
	}
	defer func() {
		for _, in := range runners {
			stop(in)
		}
	}()

	// Publishing, at a steady rate, each message until the server acks it
	// (a publish during a restart fails); Nats-Msg-Id keeps retries single.
	published := make(chan struct{})
	go func() {
		defer close(published)
		_, pjs := b.connect(t)
		every := plan.publishFor / time.Duration(plan.messages)
		for id := 1; id <= plan.messages; id++ {
			for ctx.Err() == nil {
				pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				_, err := pjs.Publish(pctx, "orders."+strconv.Itoa(id), []byte("x"), jetstream.WithMsgID("order-"+strconv.Itoa(id)))
				cancel()
				if err == nil {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(every)
		}
	}()

	// The chaos, spread over the publishing time.
	res := chaosResult{messages: plan.messages}
	var kills []window
	events := plan.disruptions + plan.outages + plan.restarts
	gap := plan.publishFor / time.Duration(events+1)
	for i := range events {
		time.Sleep(gap)
		switch {
		case i%3 == 0 && res.disruptions < plan.disruptions || res.outages >= plan.outages && res.restarts >= plan.restarts:
			from := time.Now().Add(-time.Second)
			b.disrupt(t, "ORDERS")
			kills = append(kills, window{from, time.Now().Add(2 * time.Second)})
			res.disruptions++
		case i%3 == 1 && res.outages < plan.outages || res.restarts >= plan.restarts:
			dead.down.Store(true)
			time.Sleep(plan.outageFor)
			dead.down.Store(false)
			res.outages++
		default:
			k := res.restarts % len(runners)
			stop(runners[k])
			runners[k] = start()
			res.restarts++
		}
	}
	<-published

	// Wait for the server to hold nothing for the consumer.
	deadline := time.Now().Add(90 * time.Second)
	for {
		info, err := cons.Info(ctx)
		if err == nil && info.NumPending == 0 && info.NumAckPending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 90s the consumer still holds messages: %+v, %v", info, err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The server's word: the DLQ's entries, the terminated advisories and
	// the stream. A cluster may answer "no responders" for a moment after
	// a leader change: the reading is retried as a whole.
	var w serverWord
	// excused counts the entries whose advisory a node kill may have
	// taken (advisoryMayBeLost).
	excused := func(w serverWord) int {
		n := 0
		for id := range w.inDLQ {
			if w.termByID[id] == 0 && advisoryMayBeLost(dead.writtenAt("orders."+strconv.Itoa(id)), kills) {
				n++
			}
		}
		return n
	}
	waitFor(t, 30*time.Second, "the server's state", func() bool {
		var err error
		w, err = readServerWord(ctx, js, store)
		if err != nil {
			t.Logf("reading the server: %v (retrying)", err)
		}
		return err == nil && len(w.terminated)+excused(w) >= len(w.inDLQ)
	})
	if w.msgs != uint64(plan.messages) {
		t.Errorf("the stream holds %d messages, want %d", w.msgs, plan.messages)
	}
	inDLQ, termByID, terminated := w.inDLQ, w.termByID, w.terminated

	mu.Lock()
	defer mu.Unlock()
	for id := 1; id <= plan.messages; id++ {
		want := chaosOutcome(id)
		wantDLQ := want == "permanent" || want == "undecodable" || want == "transient-always"
		if inDLQ[id] > 1 || termByID[id] > 1 {
			res.doubled++
		}
		if inDLQ[id] == 0 && !succeeded[id] {
			res.lost++
		}
		switch {
		case inDLQ[id] > 1:
			t.Errorf("message %d (%s) is in the DLQ %d times", id, want, inDLQ[id])
		case termByID[id] > 1:
			t.Errorf("message %d (%s) was terminated %d times", id, want, termByID[id])
		case wantDLQ && inDLQ[id] == 1 && termByID[id] == 0 && advisoryMayBeLost(dead.writtenAt("orders."+strconv.Itoa(id)), kills):
			res.advisoriesLost++
			t.Logf("message %d (%s): in the DLQ, its Term's advisory lost to a node kill", id, want)
		case wantDLQ && (inDLQ[id] != 1 || termByID[id] != 1):
			t.Errorf("message %d (%s): %d DLQ entries, %d Terms, want 1 and 1", id, want, inDLQ[id], termByID[id])
		case !wantDLQ && (inDLQ[id] != 0 || termByID[id] != 0):
			t.Errorf("message %d (%s): %d DLQ entries, %d Terms, want none", id, want, inDLQ[id], termByID[id])
		case !wantDLQ && !succeeded[id]:
			t.Errorf("message %d (%s) was acked without a successful handler call", id, want)
		}
	}
	// A kill takes at most the few advisories in flight on the dying node.
	if res.advisoriesLost > 5*res.disruptions {
		t.Errorf("%d terminated advisories missing around %d node kills: more than a kill can take", res.advisoriesLost, res.disruptions)
	}
	res.deliveries = int(calls.Load())
	res.succeeded = len(succeeded)
	res.deadLettered = len(inDLQ)
	res.terminated = len(terminated)
	res.refusedWrites = dead.refused.Load()
	return res
}

// serverWord is what the server holds at the end of a run.
type serverWord struct {
	inDLQ      map[int]int    // DLQ entries by message id
	terminated map[uint64]int // MSG_TERMINATED advisories by stream sequence
	termByID   map[int]int    // the same by message id
	msgs       uint64         // messages in the ORDERS stream
}

func readServerWord(ctx context.Context, js jetstream.JetStream, store *dlq.Store) (serverWord, error) {
	w := serverWord{inDLQ: map[int]int{}, terminated: map[uint64]int{}, termByID: map[int]int{}}
	idOf := func(subject string) int {
		id, _ := strconv.Atoi(strings.TrimPrefix(subject, "orders."))
		return id
	}
	for en, err := range store.Entries(ctx) {
		if err != nil {
			return w, fmt.Errorf("DLQ entries: %w", err)
		}
		w.inDLQ[idOf(en.Subject)]++
	}
	adv, err := js.Stream(ctx, "ADVISORIES")
	if err != nil {
		return w, err
	}
	advs, err := streamMsgs(ctx, adv)
	if err != nil {
		return w, err
	}
	for _, m := range advs {
		seq, ok, err := terminatedSeq(m)
		if err != nil {
			return w, err
		}
		if ok {
			w.terminated[seq]++
		}
	}
	st, err := js.Stream(ctx, "ORDERS")
	if err != nil {
		return w, err
	}
	orders, err := streamMsgs(ctx, st)
	if err != nil {
		return w, err
	}
	w.msgs = uint64(len(orders))
	for _, m := range orders {
		w.termByID[idOf(m.Subject)] += w.terminated[m.Sequence]
	}
	return w, nil
}

var discard = slog.New(slog.DiscardHandler)

// TestChaos: 3 runners × 4 workers on one server, which is restarted
// mid-run, with DLQ outages and rolling runner restarts.
func TestChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("chaos run: seconds to minutes")
	}
	t.Parallel()
	plan := chaosPlan{messages: 1500, publishFor: 12 * time.Second, runners: 3, workers: 4,
		disruptions: 2, outages: 2, outageFor: 1500 * time.Millisecond, restarts: 2}.scaled()
	res := runChaos(t, singleBroker{natstest.Start(t)}, plan)
	t.Logf("chaos: %s", res)
}

// TestChaosCluster: the same run on a 3-node cluster with R3 streams; the
// node that leads the ORDERS stream is killed and restarted mid-run.
func TestChaosCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("chaos run: seconds to minutes")
	}
	t.Parallel()
	plan := chaosPlan{messages: 1000, publishFor: 12 * time.Second, runners: 3, workers: 4,
		disruptions: 2, outages: 1, outageFor: 1500 * time.Millisecond, restarts: 1}.scaled()
	res := runChaos(t, clusterBroker{natstest.StartCluster(t, 3)}, plan)
	t.Logf("chaos, 3-node cluster: %s", res)
}
