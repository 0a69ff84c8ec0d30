package retry

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrGaveUp is wrapped, together with the last failure, by the error Do
// returns when it stops retrying a transient failure: the attempts are
// exhausted or the next retry would pass the context's deadline.
var ErrGaveUp = errors.New("retry: gave up")

// Do calls fn until it succeeds, fails permanently, or the policy (or ctx)
// stops it. Between attempts it waits for the delay the failure carries
// (RetryAfter), or for the policy's delay when the failure carries none
// (Transient). No retry is scheduled past ctx's deadline.
//
// On a permanent failure Do returns fn's error unchanged. When it stops
// retrying a transient failure it returns an error wrapping ErrGaveUp (or
// ctx.Err() if ctx ended during a wait) and the failure, so the retry intent
// still reaches the caller: a bus layer can still redeliver the message later.
func Do(ctx context.Context, p *Policy, fn func(ctx context.Context) error) error {
	for n := 1; ; n++ {
		err := fn(ctx)
		c := Classify(err)
		if !c.Transient() {
			return err // nil or permanent
		}
		d, ok := p.NextDelay(ctx, n)
		if ok && c.Kind == KindDelayed {
			d, ok = c.Delay, p.fits(ctx, c.Delay)
		}
		if !ok {
			return fmt.Errorf("%w after %d attempts: %w", ErrGaveUp, n, err)
		}
		if cerr := sleep(ctx, d); cerr != nil {
			return fmt.Errorf("retry: %w after %d attempts: %w", cerr, n, err)
		}
	}
}

// sleep waits for d or until ctx is done, and returns ctx.Err() in that case.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
