package bus

import (
	"context"
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
// warn level a failure with its classification, with the subject, the
// delivery count and the handling time.
func Logger(l *slog.Logger) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, msg Msg) error {
			start := time.Now()
			err := next(ctx, msg)
			attrs := []slog.Attr{slog.String("subject", msg.Subject()), slog.Duration("took", time.Since(start))}
			if md, mdErr := msg.Metadata(); mdErr == nil {
				attrs = append(attrs, slog.Uint64("delivered", md.NumDelivered), slog.Uint64("seq", md.Sequence.Stream))
			}
			if err == nil {
				l.LogAttrs(ctx, slog.LevelDebug, "bus: handled", attrs...)
				return nil
			}
			c := retry.Classify(err)
			attrs = append(attrs, slog.String("kind", c.Kind.String()), slog.Any("err", err))
			if c.Kind == retry.KindDelayed {
				attrs = append(attrs, slog.Duration("retry_delay", c.Delay))
			}
			l.LogAttrs(ctx, slog.LevelWarn, "bus: handler failed", attrs...)
			return err
		}
	}
}
