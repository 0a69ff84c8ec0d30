package bus

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/retrylint/retrylint/runtime/dlq"
)

// AdvisoryMaxDeliveriesPrefix is the subject prefix of the server's
// MAX_DELIVERIES advisories; the stream and consumer names follow.
const AdvisoryMaxDeliveriesPrefix = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES"

// maxDeliveriesAdvisory is the part of the server's
// io.nats.jetstream.advisory.v1.max_deliver event the runner reads.
type maxDeliveriesAdvisory struct {
	Time       time.Time `json:"timestamp"`
	Stream     string    `json:"stream"`
	Consumer   string    `json:"consumer"`
	StreamSeq  uint64    `json:"stream_seq"`
	Deliveries uint64    `json:"deliveries"`
}

// captureAdvisories subscribes to the consumer's MAX_DELIVERIES advisories
// in a queue group (one runner instance handles each advisory) and
// dead-letters the message each names. stop unsubscribes and waits for the
// advisory being handled.
func (r *Runner) captureAdvisories(ctx context.Context) (stop func(), err error) {
	var (
		mu     sync.Mutex
		closed bool
		wg     sync.WaitGroup
	)
	subject := AdvisoryMaxDeliveriesPrefix + "." + r.stream + "." + r.consumer
	sub, err := r.js.Conn().QueueSubscribe(subject, "retrylint-"+r.stream+"-"+r.consumer, func(m *nats.Msg) {
		mu.Lock()
		if closed || ctx.Err() != nil {
			mu.Unlock()
			return
		}
		wg.Add(1)
		mu.Unlock()
		defer wg.Done()
		r.onAdvisory(ctx, m.Data)
	})
	if err != nil {
		return nil, fmt.Errorf("bus: subscribe to advisories: %w", err)
	}
	if err := r.js.Conn().Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("bus: subscribe to advisories: %w", err)
	}
	return func() {
		_ = sub.Unsubscribe()
		mu.Lock()
		closed = true
		mu.Unlock()
		wg.Wait()
	}, nil
}

// onAdvisory dead-letters the message an advisory names, fetched from the
// stream by sequence. The advisory is the last word on that message, so a
// failed DLQ write is retried until it succeeds or ctx ends. A message that
// is no longer in the stream is dead-lettered without payload, so that its
// loss is on record.
func (r *Runner) onAdvisory(ctx context.Context, data []byte) {
	var a maxDeliveriesAdvisory
	if err := json.Unmarshal(data, &a); err != nil {
		r.log.Error("bus: unreadable MAX_DELIVERIES advisory", "err", err)
		return
	}
	if a.Stream != r.stream || a.Consumer != r.consumer {
		return
	}
	now := time.Now()
	e := &dlq.Entry{
		Stream:       a.Stream,
		Consumer:     a.Consumer,
		StreamSeq:    a.StreamSeq,
		Deliveries:   a.Deliveries,
		FirstFailure: r.fails.firstOr(a.StreamSeq, a.Time),
		LastFailure:  a.Time,
		Class:        string(ClassAdvisory),
		Error:        fmt.Sprintf("max deliveries (%d) reached without a verdict from the handler: the ack wait expired on the last delivery or the worker stopped during it", a.Deliveries),
		Handler:      r.name,
	}
	if e.LastFailure.IsZero() {
		e.LastFailure = now
	}
	if err := r.fetchOriginal(ctx, e); err != nil {
		r.log.Error("bus: message named by a MAX_DELIVERIES advisory is gone; dead-lettering the evidence without payload", "seq", a.StreamSeq, "err", err)
		e.Error += fmt.Sprintf("; the message could not be read from the stream: %v", err)
	}
	ev := Event{
		Stream: a.Stream, Consumer: a.Consumer, Subject: e.Subject, StreamSeq: a.StreamSeq, NumDelivered: a.Deliveries,
		Decision: Decision{Action: ActionDeadLetter, Class: ClassAdvisory, Reason: "MAX_DELIVERIES advisory"},
	}
	for {
		wctx, cancel := context.WithTimeout(ctx, r.dlqTimeout)
		err := r.dlq.Write(wctx, e)
		cancel()
		if err == nil {
			break
		}
		ev.DeadLetterErr = err
		r.log.Error("bus: dead-letter write for a MAX_DELIVERIES advisory failed; retrying", "seq", a.StreamSeq, "err", err)
		t := time.NewTimer(r.cfg.DeadLetterRetryDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			if r.observe != nil {
				r.observe(ev)
			}
			return
		case <-t.C:
		}
	}
	ev.DeadLetterErr = nil
	r.fails.forget(a.StreamSeq)
	r.log.Warn("bus: dead-lettered from a MAX_DELIVERIES advisory", "seq", a.StreamSeq, "subject", e.Subject, "delivered", a.Deliveries)
	if r.observe != nil {
		r.observe(ev)
	}
}

// fetchOriginal fills e with the stored message at e.StreamSeq.
func (r *Runner) fetchOriginal(ctx context.Context, e *dlq.Entry) error {
	st, err := r.js.Stream(ctx, e.Stream)
	if err != nil {
		return err
	}
	raw, err := st.GetMsg(ctx, e.StreamSeq)
	if err != nil {
		return err
	}
	e.Subject, e.Header, e.Data, e.Stored = raw.Subject, raw.Header, raw.Data, raw.Time
	return nil
}
