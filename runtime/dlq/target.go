package dlq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrNoConsumer is returned by Replay, before it republishes anything, when
// the consumer an entry would be replayed to does not exist on the entry's
// stream or does not take its subject. Such a copy would be acked away
// unprocessed by the runners of the other consumers (they leave a copy to
// the consumer it is meant for), or seen by no consumer at all. Replay it
// to another consumer with ReplayTo, or leave it in the DLQ.
var ErrNoConsumer = errors.New("dlq: replay target consumer does not exist")

// ConsumerTakes reports whether the consumer of stream exists and its filter
// takes subject: whether a copy published on subject reaches it. A consumer
// or stream that is not found is false with a nil error; any other failure
// of the lookup is returned.
func ConsumerTakes(ctx context.Context, js jetstream.JetStream, stream, consumer, subject string) (bool, error) {
	c, err := js.Consumer(ctx, stream, consumer)
	if errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrStreamNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("dlq: consumer %s on %s: %w", consumer, stream, err)
	}
	return filterTakes(c.CachedInfo().Config, subject), nil
}

// ConsumerTakes is the package function ConsumerTakes on the store's
// connection. bus runners use it, through their DeadLetterWriter, to
// check that a replayed copy meant for another consumer will reach it
// before they ack theirs.
func (s *Store) ConsumerTakes(ctx context.Context, stream, consumer, subject string) (bool, error) {
	return ConsumerTakes(ctx, s.js, stream, consumer, subject)
}

// filterTakes reports whether a consumer with cfg's filters receives
// messages published on subject.
func filterTakes(cfg jetstream.ConsumerConfig, subject string) bool {
	if cfg.FilterSubject == "" && len(cfg.FilterSubjects) == 0 {
		return true
	}
	if cfg.FilterSubject != "" && MatchSubject(cfg.FilterSubject, subject) {
		return true
	}
	return slices.ContainsFunc(cfg.FilterSubjects, func(f string) bool { return MatchSubject(f, subject) })
}

// MatchSubject matches a subject against a NATS subject pattern: * is one
// token, a final > one or more.
func MatchSubject(pattern, subject string) bool {
	p, s := strings.Split(pattern, "."), strings.Split(subject, ".")
	for i, tok := range p {
		switch {
		case tok == ">" && i == len(p)-1:
			return len(s) > i
		case i >= len(s):
			return false
		case tok != "*" && tok != s[i]:
			return false
		}
	}
	return len(p) == len(s)
}

// targets checks and caches, for one Replay, whether each (stream,
// consumer) pair exists, and which subjects it takes.
type targets struct {
	js    jetstream.JetStream
	infos map[[2]string]*jetstream.ConsumerConfig // nil value: not found
}

// target returns the consumer e is replayed to: to when set, else the
// consumer that failed it ("" when the entry names none: every consumer
// sees the copy).
func target(e *Entry, to string) string {
	if to != "" {
		return to
	}
	return e.Consumer
}

// check returns an error wrapping ErrNoConsumer when the consumer e is
// replayed to does not take it, and the lookup's error when that fails.
func (t *targets) check(ctx context.Context, e *Entry, to string) error {
	c := target(e, to)
	if c == "" {
		return nil
	}
	k := [2]string{e.Stream, c}
	cfg, ok := t.infos[k]
	if !ok {
		cons, err := t.js.Consumer(ctx, e.Stream, c)
		switch {
		case errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrStreamNotFound):
		case err != nil:
			return fmt.Errorf("dlq: replay %d: consumer %s on %s: %w", e.Seq, c, e.Stream, err)
		default:
			cc := cons.CachedInfo().Config
			cfg = &cc
		}
		if t.infos == nil {
			t.infos = make(map[[2]string]*jetstream.ConsumerConfig)
		}
		t.infos[k] = cfg
	}
	switch {
	case cfg == nil:
		return fmt.Errorf("%w: consumer %s on stream %s (DLQ seq %d)", ErrNoConsumer, c, e.Stream, e.Seq)
	case !filterTakes(*cfg, e.Subject):
		return fmt.Errorf("%w: consumer %s on stream %s does not take subject %s (DLQ seq %d)", ErrNoConsumer, c, e.Stream, e.Subject, e.Seq)
	}
	return nil
}
