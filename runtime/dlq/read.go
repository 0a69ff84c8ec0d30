package dlq

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrTruncated is returned by Replay for an entry whose payload was truncated
// when it was stored: replaying it would publish a corrupt message.
var ErrTruncated = errors.New("dlq: payload was truncated; entry cannot be replayed")

// HeaderReplayOf is set on a replayed message to the DLQ sequence of the
// entry it came from.
const HeaderReplayOf = "Dlq-Replay-Of"

// HeaderReplayFor is set on a replayed message to the consumer whose
// handler failed it (or the one ReplayTo names). A replay goes to the
// original subject, where every consumer of the stream sees it; bus
// runners of other consumers Ack such a message without running their
// handler once they have checked that the named consumer exists and takes
// the subject, so only that consumer processes it again. Replay refuses a
// consumer that does not (ErrNoConsumer).
const HeaderReplayFor = "Dlq-Replay-For"

// fetchWait bounds each wait for the next entry while reading the stream.
const fetchWait = 5 * time.Second

// Depth returns how many messages the DLQ stream holds, read from the
// server (one stream info request): what a DLQ-depth gauge reports.
func (s *Store) Depth(ctx context.Context) (uint64, error) {
	info, err := s.stream.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("dlq: stream info: %w", err)
	}
	return info.State.Msgs, nil
}

// Get returns the entry stored at seq in the DLQ stream.
func (s *Store) Get(ctx context.Context, seq uint64) (*Entry, error) {
	m, err := s.stream.GetMsg(ctx, seq)
	if err != nil {
		return nil, fmt.Errorf("dlq: get %d: %w", seq, err)
	}
	return Decode(m.Header, m.Data, m.Sequence, m.Time)
}

// readBatch is how many messages Entries asks the server for at once.
const readBatch = 256

// Entries returns the entries stored when it is called, in stream order.
// A message of the DLQ stream that is not an entry (published there by
// something else: it lacks the evidence headers) is yielded as an error
// wrapping ErrNotEntry, and the iteration goes on, so that one foreign
// message does not hide the entries after it; a caller that stops at any
// error stops there. Any other error ends the iteration.
//
// It reads with an ordered consumer, in batches of readBatch messages per
// pull request (10,000 entries are about 80 requests, not 10,000). When the
// consumer fails (in a cluster whose nodes restarted, pulls can meet "no
// responders" for a long while), it reads the remaining entries one by one
// from the stream leader.
func (s *Store) Entries(ctx context.Context) iter.Seq2[*Entry, error] {
	return func(yield func(*Entry, error) bool) {
		info, err := s.stream.Info(ctx)
		if err != nil {
			yield(nil, fmt.Errorf("dlq: stream info: %w", err))
			return
		}
		if info.State.Msgs == 0 {
			return
		}
		next, last := info.State.FirstSeq, info.State.LastSeq
		var read uint64
		var it jetstream.MessagesContext
		c, err := s.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
		if err == nil {
			it, err = c.Messages(jetstream.PullMaxMessages(readBatch))
		}
		if err == nil {
			defer it.Stop()
		}
		for err == nil && ctx.Err() == nil {
			var m jetstream.Msg
			if m, err = it.Next(jetstream.NextMaxWait(fetchWait)); err != nil {
				break
			}
			md, err := m.Metadata()
			if err != nil {
				yield(nil, fmt.Errorf("dlq: read: %w", err))
				return
			}
			e, err := Decode(m.Headers(), m.Data(), md.Sequence.Stream, md.Timestamp)
			if !yield(e, err) {
				return
			}
			next = md.Sequence.Stream + 1
			// Done at the last sequence, or once as many messages as the
			// stream held are read (the ones after it deleted). Not on
			// NumPending 0: in a cluster, a consumer on a replica that lags
			// says 0 a few messages short of the end.
			if read++; md.Sequence.Stream >= last || read >= info.State.Msgs {
				return
			}
		}
		if ctx.Err() != nil {
			yield(nil, fmt.Errorf("dlq: read: %w", ctx.Err()))
			return
		}
		for seq := next; seq <= last; seq++ {
			e, err := s.Get(ctx, seq)
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				continue // deleted since
			}
			if !yield(e, err) || err != nil && !errors.Is(err, ErrNotEntry) {
				return
			}
		}
	}
}

// replayable returns an error wrapping ErrTruncated for an entry stored
// without its full payload: replaying it would publish a corrupt message.
func replayable(e *Entry) error {
	if e.Reduced {
		return fmt.Errorf("%w: seq %d was stored without its payload and headers", ErrTruncated, e.Seq)
	}
	if e.Truncated() {
		return fmt.Errorf("%w: seq %d (%d of %d bytes kept)", ErrTruncated, e.Seq, len(e.Data), e.OriginalSize)
	}
	return nil
}

// Delete removes the entry stored at seq.
func (s *Store) Delete(ctx context.Context, seq uint64) error {
	if err := s.stream.DeleteMsg(ctx, seq); err != nil {
		return fmt.Errorf("dlq: delete %d: %w", seq, err)
	}
	return nil
}

// ReplayOption chooses the entries Replay republishes and what it does with
// them.
type ReplayOption func(*replayOpts) error

type replayOpts struct {
	seqs     map[uint64]bool
	filter   func(*Entry) bool
	delete   bool
	to       string
	progress func(done int, r Replayed)
}

// ReplayTo replays the chosen entries to consumer instead of the consumer
// that failed each: for a service that moved to a new durable (a
// versioned, blue/green or recreated consumer). The consumer must exist on
// each entry's stream and take its subject.
func ReplayTo(consumer string) ReplayOption {
	return func(o *replayOpts) error {
		if consumer == "" || strings.ContainsAny(consumer, ".*> \t\r\n") {
			return fmt.Errorf("%w: replay target consumer %q", ErrInvalidOption, consumer)
		}
		o.to = consumer
		return nil
	}
}

// maxRefusals bounds the refusals Replay's error lists.
const maxRefusals = 10

// ReplayProgress calls f after each entry is republished (and deleted,
// with ReplayDelete), with the number replayed so far: a long replay can
// report how far it got.
func ReplayProgress(f func(done int, r Replayed)) ReplayOption {
	return func(o *replayOpts) error {
		if f == nil {
			return fmt.Errorf("%w: nil replay progress", ErrInvalidOption)
		}
		o.progress = f
		return nil
	}
}

// ReplaySeqs replays only the entries at these DLQ sequences.
func ReplaySeqs(seqs ...uint64) ReplayOption {
	return func(o *replayOpts) error {
		if len(seqs) == 0 {
			return fmt.Errorf("%w: no sequences to replay", ErrInvalidOption)
		}
		if o.seqs == nil {
			o.seqs = map[uint64]bool{}
		}
		for _, q := range seqs {
			o.seqs[q] = true
		}
		return nil
	}
}

// ReplayFilter replays only the entries for which keep returns true.
func ReplayFilter(keep func(*Entry) bool) ReplayOption {
	return func(o *replayOpts) error {
		if keep == nil {
			return fmt.Errorf("%w: nil replay filter", ErrInvalidOption)
		}
		o.filter = keep
		return nil
	}
}

// ReplayDelete deletes each entry from the DLQ once its republish is
// confirmed.
func ReplayDelete() ReplayOption {
	return func(o *replayOpts) error {
		o.delete = true
		return nil
	}
}

// Replayed is an entry Replay republished.
type Replayed struct {
	Entry *Entry
	Ack   *jetstream.PubAck // the origin stream's ack; Ack.Duplicate is set for a repeated replay
}

// Replay republishes the chosen entries (every entry, without options) to
// their original subjects with their original payload and headers, and waits
// for each JetStream ack. It drops the original Nats-Msg-Id and
// Nats-Expected-* headers, which would make the server refuse or drop the
// replay, and sets Nats-Msg-Id to "dlq-replay.<DLQ stream>.<DLQ seq>" and
// HeaderReplayOf to the DLQ sequence, so that running the same replay twice
// within the origin stream's duplicate window publishes once.
//
// Before it republishes anything, Replay checks that the consumer each
// chosen entry goes to (the one that failed it, or ReplayTo's) exists on
// the entry's stream and takes its subject; if one does not, it replays
// nothing and returns an error wrapping ErrNoConsumer that names them. An
// entry that names no consumer goes to every consumer of its stream.
//
// An entry whose payload was truncated fails with ErrTruncated, also before
// anything is republished. Replay stops at the first failure and returns
// what it replayed so far with the error.
func (s *Store) Replay(ctx context.Context, opts ...ReplayOption) ([]Replayed, error) {
	var o replayOpts
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	chosen := func(e *Entry) bool {
		return (o.seqs == nil || o.seqs[e.Seq]) && (o.filter == nil || o.filter(e))
	}
	t := &targets{js: s.js}
	// First pass: refuse the whole replay rather than leave it half done.
	var refused []error
	n := 0
	for e, err := range s.Entries(ctx) {
		if errors.Is(err, ErrNotEntry) {
			continue // not ours to replay
		}
		if err != nil {
			return nil, err
		}
		if !chosen(e) {
			continue
		}
		if err := replayable(e); err != nil {
			return nil, err
		}
		if err := t.check(ctx, e, o.to); err != nil {
			if !errors.Is(err, ErrNoConsumer) {
				return nil, err
			}
			if n++; len(refused) < maxRefusals {
				refused = append(refused, err)
			}
		}
	}
	if n > 0 {
		if n > len(refused) {
			refused = append(refused, fmt.Errorf("and %d more", n-len(refused)))
		}
		return nil, fmt.Errorf("dlq: replay refused for %d entries: %w", n, errors.Join(refused...))
	}
	var done []Replayed
	for e, err := range s.Entries(ctx) {
		if errors.Is(err, ErrNotEntry) {
			continue
		}
		if err != nil {
			return done, err
		}
		if !chosen(e) {
			continue
		}
		if err := t.check(ctx, e, o.to); err != nil { // an entry written since the first pass
			return done, err
		}
		if err := replayable(e); err != nil {
			return done, err
		}
		m := nats.NewMsg(e.Subject)
		for k, vs := range e.Header {
			if k == jetstream.MsgIDHeader || strings.HasPrefix(k, "Nats-Expected-") {
				continue
			}
			m.Header[k] = append([]string(nil), vs...)
		}
		seq := strconv.FormatUint(e.Seq, 10)
		m.Header[HeaderReplayOf] = []string{seq}
		if c := target(e, o.to); c != "" {
			m.Header[HeaderReplayFor] = []string{c}
		}
		m.Data = e.Data
		ack, err := s.js.PublishMsg(ctx, m, jetstream.WithMsgID("dlq-replay."+s.name+"."+seq))
		if err != nil {
			return done, fmt.Errorf("dlq: replay %d to %s: %w", e.Seq, e.Subject, err)
		}
		done = append(done, Replayed{Entry: e, Ack: ack})
		if o.delete {
			if err := s.Delete(ctx, e.Seq); err != nil {
				return done, err
			}
		}
		if o.progress != nil {
			o.progress(len(done), done[len(done)-1])
		}
	}
	return done, nil
}
