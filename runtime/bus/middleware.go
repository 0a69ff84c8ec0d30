package bus

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/retrylint/retrylint/runtime/retry"
)

// Middleware wraps a Handler: it runs before and after it, and may change
// its context and its error. It must return the handler's error, or an
// error that wraps it, so that the retry intent the handler classified
// reaches Decide.
type Middleware func(Handler) Handler

// Chain wraps h in middleware, the first outermost:
// Chain(h, Logger(l), Recover()) logs what Recover makes of a panic.
func Chain(h Handler, mw ...Middleware) Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// Recover turns a panic of the handler into a *PanicError: permanent (a
// panic is a bug, not a transient failure), with the stack, which the DLQ
// entry's evidence keeps. The Runner recovers panics the same way; Recover
// is for handlers run elsewhere too (tests, other consumers), and for
// middleware outside it that should see the panic as an error.
func Recover() Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, msg Msg) (err error) {
			defer func() {
				if v := recover(); v != nil {
					err = &PanicError{Value: v, Stack: debug.Stack()}
				}
			}()
			return next(ctx, msg)
		}
	}
}

// Timeout bounds one message's handling to d, under the runner's own
// handler timeout: the handler's context is canceled after d. A handler
// that returns the context's error then returns a transient one: the
// message is retried with the backoff policy's delays, as after the
// runner's timeout.
func Timeout(d time.Duration) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, msg Msg) error {
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			err := next(ctx, msg)
			if err != nil && ctx.Err() == context.DeadlineExceeded && retry.Unclassified(err) {
				return retry.Transient(err)
			}
			return err
		}
	}
}

// Logger logs each message's outcome on l: at debug level a success, at
// info level a snooze, at warn level a failure with the kind the runner
// takes it as, with the subject, the delivery count, the attempt and the
// handling time.
//
// The kind is the runner's reading of the error, not only its marks: an
// unmarked error the runner retries (WellKnownTransient, or the runner's
// WithUnclassified) is "transient" with unmarked=true, not "permanent",
// and an error a class policy takes carries its class. Under a runner the
// handler's context says how that runner classifies; elsewhere the
// defaults apply.
func Logger(l *slog.Logger) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, msg Msg) error {
			start := time.Now()
			err := next(ctx, msg)
			attrs := []slog.Attr{slog.String("subject", msg.Subject()), slog.Duration("took", time.Since(start))}
			if md, mdErr := msg.Metadata(); mdErr == nil {
				attrs = append(attrs, slog.Uint64("delivered", md.NumDelivered), slog.Uint64("seq", md.Sequence.Stream))
			}
			if a, ok := AttemptFromContext(ctx); ok {
				attrs = append(attrs, slog.Int("attempt", a.Number))
			}
			if err == nil {
				l.LogAttrs(ctx, slog.LevelDebug, "bus: handled", attrs...)
				return nil
			}
			if sz := (*SnoozeError)(nil); errors.As(err, &sz) {
				l.LogAttrs(ctx, slog.LevelInfo, "bus: handler snoozed", append(attrs, slog.Duration("snooze", sz.Delay))...)
				return err
			}
			l.LogAttrs(ctx, slog.LevelWarn, "bus: handler failed", append(attrs, kindAttrs(ctx, err)...)...)
			return err
		}
	}
}

// kindAttrs describes err as the runner of ctx (or the default Config)
// takes it: its kind, whether it is unmarked, its class policy.
func kindAttrs(ctx context.Context, err error) []slog.Attr {
	cfg, _ := ctx.Value(configKey{}).(*Config)
	if cfg == nil {
		d := DefaultConfig()
		cfg = &d
	}
	c := retry.Classify(err)
	var attrs []slog.Attr
	if retry.Unclassified(err) {
		unclassified := cfg.Unclassified
		if unclassified == nil {
			unclassified = WellKnownTransient
		}
		if unclassified(err) {
			c = retry.Classification{Kind: retry.KindTransient}
		}
		attrs = append(attrs, slog.Bool("unmarked", true))
	}
	attrs = append(attrs, slog.String("kind", c.Kind.String()))
	if p := cfg.match(err); p != nil {
		attrs = append(attrs, slog.String("class", p.Class))
	}
	attrs = append(attrs, slog.Any("err", err))
	if c.Kind == retry.KindDelayed {
		attrs = append(attrs, slog.Duration("retry_delay", c.Delay))
	}
	return attrs
}
