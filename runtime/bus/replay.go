package bus

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/retrylint/retrylint/runtime/dlq"
)

// ReplayTargetChecker is implemented by a DeadLetterWriter that can tell
// whether a consumer exists and takes a subject (*dlq.Store does, and so do
// the writers of bus/otelbus that wrap one). A runner that sees a replayed
// copy meant for another consumer (dlq.HeaderReplayFor) Acks it without
// running its handler only once it knows that the other consumer takes it;
// otherwise the copy would be acked away by every runner and processed by
// none. A runner that cannot tell (its writer does not implement this, and
// it has no JetStream from WithAdvisories or WithConfirmedSettlement) runs
// its handler on the copy: handlers are idempotent, and a lost replay is
// not recoverable.
type ReplayTargetChecker interface {
	ConsumerTakes(ctx context.Context, stream, consumer, subject string) (bool, error)
}

// replayTargetTTL is how long a runner trusts that a consumer takes a
// subject before it asks the server again. A consumer deleted within it
// can still lose a replayed copy here, but Replay refuses to replay to a
// consumer that does not exist, so this only covers a deletion racing a
// replay.
const replayTargetTTL = 10 * time.Second

// replayTargetTimeout bounds one lookup.
const replayTargetTimeout = 5 * time.Second

// replayTargets caches the consumers known to take a subject. Negative
// answers are not cached: they are rare, and each one runs the handler.
type replayTargets struct {
	check ReplayTargetChecker // nil: cannot tell
	mu    sync.Mutex
	known map[[2]string]time.Time // (consumer, subject) → when confirmed
}

// jsTargets checks with a JetStream context.
type jsTargets struct{ js jetstream.JetStream }

func (t jsTargets) ConsumerTakes(ctx context.Context, stream, consumer, subject string) (bool, error) {
	return dlq.ConsumerTakes(ctx, t.js, stream, consumer, subject)
}

// replayTargetChecker returns how the runner checks replay targets: the
// writer's own check, else a JetStream option's, else nil.
func (r *Runner) replayTargetChecker() ReplayTargetChecker {
	if c, ok := r.dlq.(ReplayTargetChecker); ok {
		return c
	}
	for _, js := range []jetstream.JetStream{r.js, r.confirmJS} {
		if js != nil {
			return jsTargets{js}
		}
	}
	return nil
}

// targetState is what a runner knows of the consumer a replayed copy is
// meant for.
type targetState int

const (
	targetTakes   targetState = iota // it exists and takes the subject: leave the copy to it
	targetMissing                    // it does not, or the runner cannot tell: handle the copy here
	targetUnknown                    // the lookup failed: redeliver the copy later
)

// lookup says whether consumer of the runner's stream takes subject.
func (t *replayTargets) lookup(ctx context.Context, stream, consumer, subject string, now time.Time) (targetState, error) {
	if t.check == nil {
		return targetMissing, nil
	}
	k := [2]string{consumer, subject}
	t.mu.Lock()
	at, ok := t.known[k]
	t.mu.Unlock()
	if ok && now.Sub(at) < replayTargetTTL {
		return targetTakes, nil
	}
	ctx, cancel := context.WithTimeout(ctx, replayTargetTimeout)
	defer cancel()
	takes, err := t.check.ConsumerTakes(ctx, stream, consumer, subject)
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return targetMissing, nil
	case err != nil:
		return targetUnknown, err
	case !takes:
		return targetMissing, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.known == nil || len(t.known) >= maxRemembered {
		t.known = make(map[[2]string]time.Time)
	}
	t.known[k] = now
	return targetTakes, nil
}

// foreignReplay settles a replayed copy meant for another consumer and
// reports whether it did: Ack when that consumer takes it, a delayed
// redelivery when the lookup fails. It returns false when the copy must be
// handled here, as the message it was: that consumer is gone, or does not
// take the subject.
func (r *Runner) foreignReplay(m jetstream.Msg, seq, n uint64, target string) bool {
	state, err := r.targets.lookup(r.hctx, r.stream, target, m.Subject(), time.Now())
	switch state {
	case targetTakes:
		if r.confirmJS != nil {
			r.ackedConfirmed(m, seq, n, 0, 0)
		} else {
			r.acked(m, seq, n, 0, 0)
		}
		return true
	case targetUnknown:
		d := r.cfg.nak(n, r.cfg.DeadLetterRetryDelay, 0, ClassTransient, "replay target consumer lookup failed")
		r.log.Warn("bus: cannot tell whether the consumer a replayed copy is meant for exists; redelivering the copy",
			"seq", seq, "replay_for", target, "retry_in", d.Requested, "err", err)
		r.finish(m, nakAfter(d.Delay), Event{
			Stream: r.stream, Consumer: r.consumer, Subject: m.Subject(),
			StreamSeq: seq, NumDelivered: n, Err: err, Decision: d,
		})
		return true
	}
	r.log.Warn("bus: a replayed copy is meant for a consumer that does not exist or does not take its subject; handling it here",
		"seq", seq, "subject", m.Subject(), "replay_for", target)
	return false
}
