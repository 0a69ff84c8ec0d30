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

// termRacedKill reports whether a message's first Term, announced at
// first, raced a node kill, so that the server may announce a second one
// for it: the consumer leader sends the MSG_TERMINATED advisory as it gets
// a Term, before the Term is replicated. If it dies in between, the Term
// is lost with it: the new leader still holds the message, and redelivers
// it after the ack wait; the runner dead-letters it again (the DLQ's
// deduplication stores nothing) and terminates it again, which the new
// leader announces too. Likewise a runner with confirmed settlement sends
// again, after it reconnects, a Term whose answer the kill took, and the
// server announces a Term of a message it no longer holds as well. A
// second Term is right then (the message must not stay held), and only
// then: one far from every kill is a runner terminating twice.
func termRacedKill(first time.Time, kills []window) bool {
	return advisoryMayBeLost(first, kills)
}

// chaosResult is what a run measured.
type chaosResult struct {
	messages, deliveries, succeeded, deadLettered, terminated int
	disruptions, outages, restarts                            int
	refusedWrites                                             int64
	lost, doubled                                             int // neither acked after success nor dead-lettered; stored or terminated twice
	advisoriesLost                                            int // Terms whose advisory a node kill took (advisoryMayBeLost)
	termsAgain                                                int // messages terminated again after a Term that raced a kill (termRacedKill)
}

func (r chaosResult) String() string {
	return fmt.Sprintf("%d messages, %d handler calls, %d succeeded, %d dead-lettered, %d terminated by the server; "+
		"%d node restarts, %d DLQ outages (%d writes refused), %d runner restarts; lost %d, doubled %d; "+
		"%d terminated advisories lost to node kills, %d messages terminated again after a Term that raced a kill",
		r.messages, r.deliveries, r.succeeded, r.deadLettered, r.terminated, r.disruptions, r.outages, r.refusedWrites, r.restarts,
		r.lost, r.doubled, r.advisoriesLost, r.termsAgain)
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
	for read, until := false, time.Now().Add(30*time.Second); ; time.Sleep(50 * time.Millisecond) {
		next, err := readServerWord(ctx, js, store)
		if err != nil {
			t.Logf("reading the server: %v (retrying)", err)
		} else {
			w, read = next, true
			if len(w.terminated)+excused(w) >= len(w.inDLQ) {
				break
			}
		}
		if time.Now().After(until) {
			if !read {
				t.Fatal("the server's state could not be read for 30s")
			}
			// Judged below, message by message: the ones without a Term
			// are named.
			t.Errorf("after 30s, %d DLQ entries and %d terminated messages (%d excused)", len(w.inDLQ), len(w.terminated), excused(w))
			break
		}
	}
	if w.msgs != uint64(plan.messages) {
		t.Errorf("the stream holds %d messages, want %d", w.msgs, plan.messages)
	}
	mu.Lock()
	defer mu.Unlock()
	for id := 1; id <= plan.messages; id++ {
		v, why := judge(id, succeeded[id], w, dead.writtenAt("orders."+strconv.Itoa(id)), kills)
		switch v {
		case judgedLost:
			res.lost++
		case judgedDoubled:
			res.doubled++
		case judgedAdvisoryLost:
			res.advisoriesLost++
		case judgedTermedAgain:
			res.termsAgain++
		}
		switch v {
		case judgedAdvisoryLost, judgedTermedAgain:
			t.Log(why)
		case judgedOK:
		default:
			t.Error(why)
		}
	}
	// A kill takes at most the few advisories, or Terms, in flight on the
	// dying node.
	if res.advisoriesLost > 5*res.disruptions {
		t.Errorf("%d terminated advisories missing around %d node kills: more than a kill can take", res.advisoriesLost, res.disruptions)
	}
	if res.termsAgain > 5*res.disruptions {
		t.Errorf("%d messages terminated again around %d node kills: more than a kill can take", res.termsAgain, res.disruptions)
	}
	res.deliveries = int(calls.Load())
	res.succeeded = len(succeeded)
	res.deadLettered = len(w.inDLQ)
	res.terminated = len(w.terminated)
	res.refusedWrites = dead.refused.Load()
	return res
}

// judged is what the server's word says of one message.
type judged int

const (
	judgedOK           judged = iota
	judgedAdvisoryLost        // in the DLQ, its Term's advisory lost to a node kill (advisoryMayBeLost)
	judgedTermedAgain         // in the DLQ once, terminated twice, the first Term racing a node kill (termRacedKill)
	judgedLost                // neither acked after a successful handler call nor in the DLQ
	judgedDoubled             // in the DLQ twice, or terminated twice without a kill to explain it
	judgedWrong               // ended otherwise than its outcome asks (a wrong DLQ entry or Term, an Ack without success)
)

// judge says how message id ended, from the server's word w, whether a
// handler call succeeded for it, when the runners last wrote its DLQ
// entry, and the windows of the node kills; why explains anything but
// judgedOK.
func judge(id int, succeeded bool, w serverWord, written time.Time, kills []window) (v judged, why string) {
	want := chaosOutcome(id)
	wantDLQ := want == "permanent" || want == "undecodable" || want == "transient-always"
	inDLQ, terms := w.inDLQ[id], w.termByID[id]
	switch {
	case inDLQ > 1:
		return judgedDoubled, fmt.Sprintf("message %d (%s) is in the DLQ %d times", id, want, inDLQ)
	case wantDLQ && inDLQ == 1 && terms == 2 && termRacedKill(w.firstTerm[id], kills):
		// Stored once, terminated twice, the first Term announced in a
		// kill's window: the kill lost that Term or its answer, and the
		// second is the one that holds (see termRacedKill).
		return judgedTermedAgain, fmt.Sprintf("message %d (%s): in the DLQ once, terminated twice: its first Term (%s) raced a node kill (%v)",
			id, want, w.firstTerm[id].Format(time.StampMilli), kills)
	case terms > 1:
		return judgedDoubled, fmt.Sprintf("message %d (%s) was terminated %d times (%d DLQ entries; first Term %s; node kills %v)",
			id, want, terms, inDLQ, w.firstTerm[id].Format(time.StampMilli), kills)
	case inDLQ == 0 && !succeeded:
		return judgedLost, fmt.Sprintf("message %d (%s) is lost: not in the DLQ, and no handler call succeeded", id, want)
	case wantDLQ && inDLQ == 1 && terms == 0 && advisoryMayBeLost(written, kills):
		return judgedAdvisoryLost, fmt.Sprintf("message %d (%s): in the DLQ, its Term's advisory lost to a node kill", id, want)
	case wantDLQ && (inDLQ != 1 || terms != 1):
		return judgedWrong, fmt.Sprintf("message %d (%s): %d DLQ entries, %d Terms, want 1 and 1", id, want, inDLQ, terms)
	case !wantDLQ && (inDLQ != 0 || terms != 0):
		return judgedWrong, fmt.Sprintf("message %d (%s): %d DLQ entries, %d Terms, want none", id, want, inDLQ, terms)
	case !wantDLQ && !succeeded:
		return judgedWrong, fmt.Sprintf("message %d (%s) was acked without a successful handler call", id, want)
	}
	return judgedOK, ""
}

// String shows a kill's window.
func (w window) String() string {
	return w.from.Format(time.StampMilli) + " to " + w.to.Format(time.StampMilli)
}

// serverWord is what the server holds at the end of a run.
type serverWord struct {
	inDLQ      map[int]int       // DLQ entries by message id
	terminated map[uint64]int    // MSG_TERMINATED advisories by stream sequence
	termByID   map[int]int       // the same by message id
	firstTerm  map[int]time.Time // the earliest of them by message id
	msgs       uint64            // messages in the ORDERS stream
}

func readServerWord(ctx context.Context, js jetstream.JetStream, store *dlq.Store) (serverWord, error) {
	w := serverWord{inDLQ: map[int]int{}, terminated: map[uint64]int{}, termByID: map[int]int{}, firstTerm: map[int]time.Time{}}
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
	firstBySeq := map[uint64]time.Time{}
	for _, m := range advs {
		seq, at, ok, err := terminatedAt(m)
		if err != nil {
			return w, err
		}
		if ok {
			w.terminated[seq]++
			if first, seen := firstBySeq[seq]; !seen || at.Before(first) {
				firstBySeq[seq] = at
			}
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
		id := idOf(m.Subject)
		w.termByID[id] += w.terminated[m.Sequence]
		if at, ok := firstBySeq[m.Sequence]; ok {
			w.firstTerm[id] = at
		}
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

// TestChaosJudgement: how runChaos judges a message from the server's
// word. A message stored once and terminated twice is a Term that raced a
// node kill (termRacedKill) only when its first Term was announced in a
// kill's window; twice elsewhere, three times, or with two DLQ entries, it
// is doubled.
func TestChaosJudgement(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	kills := []window{{t0.Add(10 * time.Second), t0.Add(15 * time.Second)}}
	in, out := t0.Add(11*time.Second), t0.Add(5*time.Second)
	const always, ok = 3, 4 // transient-always, ok (chaosOutcome)
	word := func(id, inDLQ, terms int, first time.Time) serverWord {
		return serverWord{inDLQ: map[int]int{id: inDLQ}, termByID: map[int]int{id: terms}, firstTerm: map[int]time.Time{id: first}}
	}
	for _, c := range []struct {
		name      string
		id        int
		succeeded bool
		w         serverWord
		written   time.Time
		want      judged
	}{
		{"dead-lettered and terminated", always, false, word(always, 1, 1, out), out, judgedOK},
		{"acked after success", ok, true, word(ok, 0, 0, time.Time{}), time.Time{}, judgedOK},
		{"terminated twice, the first Term in a kill's window", always, false, word(always, 1, 2, in), in, judgedTermedAgain},
		{"terminated twice far from every kill", always, false, word(always, 1, 2, out), out, judgedDoubled},
		{"terminated three times in a kill's window", always, false, word(always, 1, 3, in), in, judgedDoubled},
		{"stored twice in a kill's window", always, false, word(always, 2, 2, in), in, judgedDoubled},
		{"terminated twice without a DLQ entry", always, false, word(always, 0, 2, in), in, judgedDoubled},
		{"a message that succeeds, terminated twice in a kill's window", ok, true, word(ok, 1, 2, in), in, judgedDoubled},
		{"stored, its advisory lost to a kill", always, false, word(always, 1, 0, time.Time{}), in, judgedAdvisoryLost},
		{"stored, no Term, far from every kill", always, false, word(always, 1, 0, time.Time{}), out, judgedWrong},
		{"neither stored nor succeeded", always, false, word(always, 0, 0, time.Time{}), time.Time{}, judgedLost},
		{"acked without success", ok, false, word(ok, 0, 0, time.Time{}), time.Time{}, judgedLost},
	} {
		if got, why := judge(c.id, c.succeeded, c.w, c.written, kills); got != c.want {
			t.Errorf("%s: judged %d (%s), want %d", c.name, got, why, c.want)
		}
	}
}

// TestServerAnnouncesEveryTerm: the server sends a MSG_TERMINATED advisory
// for every Term it gets, also for a message it no longer holds: a Term
// sent again (a confirmed runner after a reconnect, or a runner whose
// first Term a failover lost) is announced again. runChaos's judge relies
// on it (termRacedKill).
func TestServerAnnouncesEveryTerm(t *testing.T) {
	e := newEnv(t)
	adv := e.captureAdvisories()
	cons := e.consumer(bus.ConsumerConfig("worker"))
	seq := e.publish("orders.1", "x", nil)
	m, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := e.nc.Publish(m.Reply(), []byte("+TERM")); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 5*time.Second, "two advisories", func() bool { return len(adv.terminated()) == 2 })
	if got := adv.terminated(); got[0] != seq || got[1] != seq {
		t.Fatalf("terminated %v, want %d twice", got, seq)
	}
	if info := e.info(cons); info.NumAckPending != 0 || info.NumPending != 0 {
		t.Fatalf("consumer still holds messages: %+v", info)
	}
}
